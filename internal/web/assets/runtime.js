// The acore web runtime: signals, effects, DOM bindings, keyed lists,
// contract calls and the router. The compiled app follows it in app.js.
const D=document,P=new Set;let C=null,O=null,T=0,I=0;
// S makes a signal: s() reads it (and subscribes the running effect), s.set(v) writes it.
const S=v=>{const s=()=>{if(C){s.u.add(C);C.d.add(s)}return s.v};s.v=v;s.u=new Set;s.set=n=>{if(eq(s.v,n))return;s.v=n;for(const e of s.u)sch(e)};return s};
function eq(a,b){if(a===b||a==null&&b==null)return true;if(typeof a!="object"||typeof b!="object"||!a||!b)return false;
const x=Array.isArray(a);if(x!==Array.isArray(b))return false;const k=Object.keys(a);if(k.length!==Object.keys(b).length)return false;
for(const n of k)if(!eq(a[n],b[n]))return false;return true}
function clean(o){for(const k of o.k)kill(k);o.k=[];for(const c of o.c)c();o.c=[];if(o.d){for(const s of o.d)s.u.delete(o);o.d.clear()}}
function kill(o){o.z=1;clean(o)}
function drop(o){kill(o);const k=o.p&&o.p.k,i=k?k.indexOf(o):-1;if(i>=0)k.splice(i,1)}
function run(e){clean(e);const c=C,o=O;C=O=e;try{e.f()}catch(x){console.error(x)}finally{C=c;O=o}}
// E runs f now and again whenever a signal it read changes (in a microtask, parents first).
function E(f){const e={f,k:[],c:[],d:new Set,i:I++,p:O};if(O)O.k.push(e);run(e);return e}
function sch(e){P.add(e);if(!T){T=1;queueMicrotask(flush)}}
function flush(){while(P.size){const a=[...P].sort((x,y)=>x.i-y.i);P.clear();for(const e of a)if(!e.z)run(e)}T=0}
const U=f=>{const c=C;C=null;try{return f()}finally{C=c}};
function sub(p,f){const s={k:[],c:[],p};if(p)p.k.push(s);const c=C,o=O;C=null;O=s;try{f()}finally{C=c;O=o}return s}
const onC=f=>O&&O.c.push(f);
// Values: Acore text, integer arithmetic, optionals.
const str=v=>v==null?"":String(v),dv=(a,b)=>b?Math.trunc(a/b):0,md=(a,b)=>b?a%b:0;
const len=v=>v==null?null:[...v].length,cnt=v=>v==null?null:v.length,emp=v=>v==null?null:v.length===0;
// DOM: h creates an element with attributes given as name, value pairs.
function h(t,a,p){const e=D.createElement(t);for(let i=0;i<a.length;i+=2)e.setAttribute(a[i],a[i+1]);if(p)p.append(e);return e}
const tx=(e,f)=>E(()=>{e.textContent=str(f())}),pr=(e,n,f)=>E(()=>{e[n]=f()}),st=(e,n,f,u)=>E(()=>{const v=f();e.style[n]=v==null?"":v+(u||"")});
// at binds an attribute; k is a URL's rule (docs/web.md, URLs): rp for a Link, ri for an Image.
const ok=v=>!/[\0- \x7f\\]/.test(v),rp=v=>ok(v)&&/^\/(?!\/)/.test(v),ri=v=>ok(v)&&(/^(https?:|data:image\/(png|jpeg|gif|webp|avif)[;,])/i.test(v)||!/^([a-z][a-z\d+.-]*:|\/\/)/i.test(v));
const at=(e,n,f,k)=>E(()=>{let v=f();if(v!=null&&k&&!k(v=String(v))){console.warn("acore: refused "+n,v);v=null}v==null?e.removeAttribute(n):e.setAttribute(n,String(v))});
function act(f){try{f()}catch(x){console.error(x)}}
// An element whose action declares confirmation_required asks before it runs,
// so the page does what its AXAG facts promise runtime agents and people.
const cf=e=>e.getAttribute("axag-confirmation-required")!="true"||confirm(((e.textContent||e.getAttribute("aria-label")||"").trim()||"Continue")+": are you sure?");
const FX={start:"flex-start",end:"flex-end",center:"center",stretch:"stretch",space_between:"space-between",space_around:"space-around",space_evenly:"space-evenly"};
const ky=(e,f)=>e.addEventListener("keydown",x=>{if(x.key=="Enter"&&!x.isComposing){x.preventDefault();if(cf(e))act(f)}});
const on=(e,n,f)=>e.addEventListener(n,x=>{if(n=="submit")x.preventDefault();if(cf(e))act(f)});
function ax(e,i){if(i==null)return;const a=AX[i];for(let j=0;j<a.length;j+=2)e.setAttribute(a[j],a[j+1])}
// Two-way bindings: s is the state named by value/checked/on (or null), f reads the value.
function bv(e,f,s,c){E(()=>{const v=str(f());if(e.value!==v)e.value=v});e.addEventListener(e.tagName=="SELECT"?"change":"input",()=>{if(s)s.set(e.value);if(c)act(c)})}
function bc(e,f,s,c){E(()=>{e.checked=!!f()});e.addEventListener("change",()=>{if(s)s.set(e.checked);if(c)act(c)})}
function opts(e,f){E(()=>{const v=e.value;e.textContent="";for(const o of f()||[])h("option",["value",o],e).textContent=o;e.value=v})}
// IF shows the first branch whose condition holds; bs is [cond, render, ...].
function IF(w,bs){const p=O;let n=-2,s=null;E(()=>{let k=-1;for(let i=0;i<bs.length;i+=2)if(bs[i]()){k=i;break}
if(k===n)return;n=k;U(()=>{if(s)drop(s);s=null;w.textContent="";if(k>=0)s=sub(p,()=>bs[k+1](w))})})}
// mv moves a node and keeps the focus and selection inside it.
function mv(p,n,r){const a=D.activeElement,f=a&&n.contains(a);if(p.moveBefore&&n.parentNode===p&&n.isConnected)try{p.moveBefore(n,r);return}catch{}
let x,y;if(f)try{x=a.selectionStart;y=a.selectionEnd}catch{}p.insertBefore(n,r);if(f&&D.activeElement!==a){a.focus({preventScroll:true});try{if(x!=null)a.setSelectionRange(x,y)}catch{}}}
// L renders a keyed list: an item keeps its <li>, its scope and its focus while the list changes.
function L(u,f,key,t,empty,end){const p=O;let m=new Map,z=null,s=null;
if(end){s=h("li",["class","ac-end","aria-hidden","true"],u);const io=new IntersectionObserver(x=>{if(x[0].isIntersecting)act(end)});io.observe(s);onC(()=>io.disconnect())}
E(()=>{const xs=f()||[],et=empty&&empty();U(()=>{const nm=new Map,o=[];xs.forEach((x,i)=>{let k=key(x);if(nm.has(k))k=k+"\0"+i;let r=m.get(k);
if(r){r.s.set(x);m.delete(k)}else{const li=D.createElement("li"),v=S(x);r={n:li,s:v,o:sub(p,()=>t(li,v))}}nm.set(k,r);o.push(r)});
for(const r of m.values()){drop(r.o);r.n.remove()}m=nm;let nx=s;for(let i=o.length-1;i>=0;i--){const n=o[i].n;if(n.parentNode!==u||n.nextSibling!==nx)mv(u,n,nx);nx=n}
if(empty&&!o.length){if(!z){z=h("li",["class","ac-empty"]);u.insertBefore(z,s)}z.textContent=str(et)}else if(z){z.remove();z=null}})})}
// Contract calls (docs/web.md, "Backend wire format").
async function call(c,op,a){let r,b,x;try{r=await fetch(B+"/"+encodeURIComponent(c)+"/"+encodeURIComponent(op),{method:"POST",headers:{"Content-Type":"application/json"},body:JSON.stringify(a)});x=await r.text()}catch{return{m:"network error"}}
try{b=x?JSON.parse(x):null}catch{b=undefined}if(r.ok)return b===undefined?{m:"invalid response (HTTP "+r.status+")"}:{ok:1,v:b};
return{m:b&&b.error&&typeof b.error.message=="string"?b.error.message:"HTTP "+r.status}}
const live=new Map;
function st4(d){return{pending:S(false),error:S(false),error_message:S(""),data:S(d)}}
function done(q,r){q.pending.set(false);if(r.ok){q.error.set(false);q.error_message.set("");q.data.set(r.v)}else{q.error.set(true);q.error_message.set(r.m)}}
// Q is a query: fetched now and whenever its arguments change. It is pending until its first answer;
// later requests keep the data on the page until they answer (a keyed list keeps its nodes).
function Q(c,op,f,d){const q=st4(d);let n=0,a;q.pending.v=true;q.go=async()=>{const k=++n;const r=await call(c,op,a);if(k===n&&!q.z)done(q,r)};
q.refresh=()=>{q.go()};E(()=>{a=f();U(q.go)});let l=live.get(c);if(!l)live.set(c,l=new Set);l.add(q);onC(()=>{l.delete(q);q.z=1});return q}
// M is a mutation: run() reads its arguments now and returns at once; success refreshes the contract's live queries.
function M(c,op,f){const m=st4(null);m.run=()=>{const a=U(f);m.pending.set(true);return call(c,op,a).then(r=>{done(m,r);if(r.ok)for(const q of live.get(c)||[])q.refresh()})};return m}
function X(n,a){try{const f=XS[n];Promise.resolve(f(a)).catch(x=>console.error(x))}catch(x){console.error(x)}}
// The router: routes on the History API.
let pg=null;const app=D.getElementById("app");
function nav(u){const l=location;if(l.pathname+l.search+l.hash!==u){history.pushState(null,"",u);show(1)}}
function show(f){if(pg)kill(pg);app.textContent="";let u=location.pathname;if(u.length>1&&u.endsWith("/"))u=u.slice(0,-1);const r=R[u];
pg=sub(null,()=>{const w=h("main",["class","ac-page","tabindex","-1"],app);if(r)r(w);else{w.classList.add("ac-404");h("h1",[],w).textContent="Page not found";
h("p",[],w).textContent="There is no page at "+u+".";lk(h("a",["href","/"],w)).textContent="Go to the home page"}if(f){scrollTo(0,0);w.focus()}})}
function lk(a){a.addEventListener("click",x=>{if(x.button||x.metaKey||x.ctrlKey||x.shiftKey||x.altKey||a.target)return;const u=new URL(a.href,location.href);x.preventDefault();nav(u.pathname+u.search+u.hash)});return a}
addEventListener("popstate",()=>show(0));
