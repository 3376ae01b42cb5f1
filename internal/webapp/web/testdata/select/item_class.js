function P_Home(w){const I="element:Home/view/";
const $selected=S(0);
const $rows=S([]);
{const v1=h("ul",["class","ac-list"],w,I+"0");const v2=SEL($selected);const v4=h("li",[]);const v3=h("p",[],v4,I+"0/0"," ");const v6=$r=>v2($r?.id)?"danger":"";L(v1,()=>$rows(),$r=>$r?.id,PL(v4,(v5,$r)=>{wc(v5,"",v6($r));const v7=v5.firstChild;wt(v7,$r?.label);},{},[[v2,$r=>$r?.id]]),null,null);}
}
