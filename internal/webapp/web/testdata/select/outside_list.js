function P_Home(w){const I="element:Home/view/";
const $selected=S(0);
const $rows=S([]);
{const v1=h("p",[],w,I+"0","x");pr(v1,"hidden",()=>!eq($selected(),3));}
}
