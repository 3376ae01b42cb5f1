function P_Home(w){const $selected=S(0);
const $rows=S([]);
{const v1=h("p",["data-acore-id","element:Home/view/0"],w);v1.textContent="x";pr(v1,"hidden",()=>!eq($selected(),3));}
}
