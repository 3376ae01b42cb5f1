function P_Home(w){const I="element:Home/view/";
const $selected=S(0);
const $rows=S([]);
{const v1=h("ul",["class","ac-list"],w,I+"0");const v3=SEL($selected);const v4=h("li",[]);const v2=h("p",[],v4,I+"0/0"," ");L(v1,()=>$rows(),$r=>$r?.id,PL(v4,(v5,$r)=>{const v6=v5.firstChild;wc(v6,"",v3($r?.id)?"on":"");wt(v6,$r?.label);},{},[[v3,$r=>$r?.id]]),null,null);}
}
