function P_Home(w){const $level=S(0.5);
const $rows=S([]);
{const v1=h("ul",["class","ac-list","data-acore-id","element:Home/view/0"],w);L(v1,()=>$rows(),$r=>$r?.id,G((v2,$r)=>{{const v3=h("p",["data-acore-id","element:Home/view/0/0"],v2);tx(v3,()=>$r()?.label);pr(v3,"hidden",()=>!eq($level(),$r()?.weight));}
}),null,null);}
}
