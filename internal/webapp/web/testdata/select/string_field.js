function P_Home(w){const $picked=S("");
const $rows=S([]);
{const v1=h("ul",["class","ac-list","data-acore-id","element:Home/view/0"],w);const v4=SEL($picked);L(v1,()=>$rows(),$r=>$r?.id,(v2,$r)=>{{const v3=h("p",["data-acore-id","element:Home/view/0/0"],v2);tx(v3,()=>$r()?.label);cl(v3,()=>v4($r()?.label)?"on":"");}
},null,null);}
}
