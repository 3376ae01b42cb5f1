package compilecache

import "syscall"

// mapPopulate maps the pages at once: the checksum reads them all.
const mapPopulate = syscall.MAP_POPULATE
