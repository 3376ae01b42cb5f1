function P_Home(w){const I="element:Home/view/";
const $selected=S(0);
const $rows=S([]);
{const v1=h("ul",["class","ac-list"],w,I+"0");const v4=SEL($selected);L(v1,()=>$rows(),$r=>$r?.id,G((v2,$r)=>{{const v3=h("p",[],v2,I+"0/0");tx(v3,()=>$r()?.label);pr(v3,"hidden",()=>!!v4($r()?.id));}
}),null,null);}
}
