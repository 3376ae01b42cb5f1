// The extern action of the actions test: it records that it ran.
export function purge() {
  window.__purged = (window.__purged || 0) + 1;
}
