// Extern actions of the notes app: each is called with one object of its
// named arguments.
export function share({ text }) {
  if (navigator.share) return navigator.share({ text });
  console.log("share", text);
}

/* export function notThis() {} */
const track = ({ event, count }) => console.log("track", event, count);
export { track };
