//go:build unix && !linux

package compilecache

const mapPopulate = 0
