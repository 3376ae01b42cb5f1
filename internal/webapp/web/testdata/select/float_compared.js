function P_Home(w){const I="element:Home/view/";
const $level=S(0.5);
const $rows=S([]);
{const v1=h("ul",["class","ac-list"],w,I+"0");L(v1,()=>$rows(),$r=>$r?.id,G((v2,$r)=>{{const v3=h("p",[],v2,I+"0/0");tx(v3,()=>$r()?.label);pr(v3,"hidden",()=>!eq($level(),$r()?.weight));}
}),null,null);}
}
