function P_Home(w){const I="element:Home/view/";
const $selected=S(0);
const $hovered=S(0);
const $rows=S([]);
{const v1=h("ul",["class","ac-list"],w,I+"0");const v3=SEL($selected);const v4=SEL($hovered);const v5=h("li",[]);const v2=h("p",[],v5,I+"0/0"," ");L(v1,()=>$rows(),$r=>$r?.id,PL(v5,(v6,$r)=>{const v7=v6.firstChild;wc(v7,"",v3($r?.id)||v4($r?.id)||v3($r?.id)?"on":"");wt(v7,$r?.label);},{},[[v3,$r=>$r?.id],[v4,$r=>$r?.id]]),null,null);}
}
