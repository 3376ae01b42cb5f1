function P_Home(w){const I="element:Home/view/";
const $selected=S(0);
const $rows=S([]);
{const v1=h("p",[],w,I+"0");v1.textContent="x";pr(v1,"hidden",()=>!eq($selected(),3));}
}
