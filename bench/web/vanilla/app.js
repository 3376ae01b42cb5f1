// The benchmark app by hand (bench/web), after js-framework-benchmark's
// keyed vanillajs: one delegated listener per container, rows cloned from
// a template, and each operation doing only its own DOM work. The rows
// come from the same backend calls the Acore app makes: apply_op, then
// list_rows.
const tbody = document.querySelector(".rows");
const tpl = document.createElement("template");
tpl.innerHTML = '<li><p class="id"> </p><button type="button" class="lbl"> </button><button type="button" class="remove">×</button></li>';
const proto = tpl.content.firstChild;
let data = [], nodes = [], selected = null;

async function call(op, args) {
  const r = await fetch("/rows/" + op, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(args)});
  return r.json();
}

function row(d) {
  const li = proto.cloneNode(true);
  li.firstChild.firstChild.nodeValue = d.id;
  li.childNodes[1].firstChild.nodeValue = d.label;
  li.$id = d.id;
  return li;
}

function fill(from) {
  const f = document.createDocumentFragment();
  for (let i = from; i < data.length; i++) f.appendChild(nodes[i] = row(data[i]));
  tbody.appendChild(f);
}

const apply = {
  run() { tbody.textContent = ""; nodes = []; selected = null; fill(0); },
  runlots() { apply.run(); },
  add(old) { fill(old.length); },
  update() { for (let i = 0; i < data.length; i += 10) nodes[i].childNodes[1].firstChild.nodeValue = data[i].label; },
  clear() { tbody.textContent = ""; nodes = []; selected = null; },
  swaprows() {
    if (nodes.length <= 998) return;
    const a = nodes[1], b = nodes[998], after = b.nextSibling;
    tbody.insertBefore(b, a);
    tbody.insertBefore(a, after);
    nodes[1] = b; nodes[998] = a;
  },
  remove(old, id) {
    const i = old.findIndex((d) => d.id === id);
    nodes[i].remove();
    nodes.splice(i, 1);
    if (selected && selected.$id === id) selected = null;
  },
};

async function op(name, id = 0) {
  await call("apply_op", {op: name, id});
  const old = data;
  data = await call("list_rows", {});
  apply[name](old, id);
}

document.querySelector(".jumbotron").addEventListener("click", (e) => {
  const c = e.target.className;
  if (c && apply[c]) op(c);
});
tbody.addEventListener("click", (e) => {
  const li = e.target.closest("li");
  if (e.target.className === "remove") op("remove", li.$id);
  else if (e.target.className === "lbl") {
    if (selected) selected.className = "";
    (selected = li).className = "danger";
  }
});
call("list_rows", {}).then((d) => { data = d; fill(0); });
