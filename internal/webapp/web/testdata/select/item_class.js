function P_Home(w){const $selected=S(0);
const $rows=S([]);
{const v1=h("ul",["class","ac-list","data-acore-id","element:Home/view/0"],w);const v2=SEL($selected);L(v1,()=>$rows(),$r=>$r?.id,(v3,$r)=>{cl(v3,()=>($r=>v2($r?.id)?"danger":"")($r()));{const v4=h("p",["data-acore-id","element:Home/view/0/0"],v3);tx(v4,()=>$r()?.label);}
},null,null);}
}
