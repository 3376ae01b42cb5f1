const B="";
const AX=[["axag-intent","home.open","axag-entity","home","axag-action-type","navigate","axag-description","Element Button of page About.","axag-operation-id","home_open","axag-risk-level","none"],["axag-intent","note.create","axag-entity","note","axag-action-type","write","axag-description","Creates a note \"now\" & <lists> it, the user's","axag-operation-id","create_note","axag-risk-level","low","axag-idempotent","false","axag-approval-required","false","axag-scope","user","axag-tenant-boundary","strict","axag-preconditions","[\"the user is signed in\"]","axag-postconditions","[\"the note is listed\"]","axag-side-effects","[]","axag-required-parameters","[{\"name\":\"title\",\"type\":\"string\"}]","axag-optional-parameters","[{\"name\":\"priority\",\"type\":\"integer\",\"default\":1}]"],["axag-intent","note.delete","axag-entity","note","axag-action-type","delete","axag-description","Runs the contract mutation Notes.delete_note, bound as remove in component NoteRow.","axag-operation-id","delete_note","axag-risk-level","high","axag-idempotent","true","axag-confirmation-required","true","axag-approval-required","true","axag-approval-roles","[\"owner\"]","axag-required-roles","[\"editor\"]","axag-scope","user","axag-tenant-boundary","strict","axag-preconditions","[\"the note exists\"]","axag-postconditions","[\"the note is gone\"]","axag-side-effects","[]","axag-required-parameters","[{\"name\":\"id\",\"type\":\"string\"}]"],["axag-intent","note.list","axag-entity","note","axag-action-type","read","axag-description","Runs the contract query Notes.list_notes, bound as notes in page Home.","axag-operation-id","list_notes","axag-risk-level","none","axag-idempotent","true","axag-approval-required","false","axag-scope","user","axag-tenant-boundary","strict","axag-preconditions","[\"the user is signed in\"]","axag-postconditions","[\"nothing changes\"]","axag-side-effects","[]","axag-optional-parameters","[{\"name\":\"pinned\",\"type\":\"boolean\"},{\"name\":\"sort\",\"type\":\"string\"}]"]];
function C_NoteRow(w,P){const $note=P.note||(()=>null);const $on_open=P.on_open;const $dense=P.dense||(()=>false);const $selected=S(false);const $remove=M("notes","delete_note",()=>({"id":$note()?.id}));
{const v1=h("div",["class","ac-row","data-acore-id","element:NoteRow/view/0"],w);{const v=v1;v.style.gap="8px";v.style.alignItems="center";v.style.justifyContent="space-between"}
{const v3=h("label",["class","ac-check"],v1);const v2=h("input",["type","checkbox","data-acore-id","element:NoteRow/view/0/0"],v3);tx(h("span",[],v3),()=>("Select "+str($note()?.title)));{const v=v2;bc(v,()=>$selected(),$selected,null)}}
{const v4=h("h2",["data-acore-id","element:NoteRow/view/0/1"],v1);{const v=v4;tx(v,()=>(((str($note()?.title)+" (")+str($note()?.priority))+")"));v.classList.add("ac-clamp");v.style.webkitLineClamp="1"}}
{const v5=h("button",["type","button","class","ac-secondary","data-acore-id","element:NoteRow/view/0/2"],v1);{const v=v5;v.textContent="Open";on(v,"click",()=>$on_open&&$on_open.f());pr(v,"hidden",()=>!(!$dense()))}ax(v5,($on_open&&$on_open.a));}
{const v6=h("div",["class","ac-if","data-acore-id","conditional:NoteRow/view/0/3"],v1);IF(v6,[()=>$selected(),(v7)=>{{const v8=h("button",["type","button","class","ac-danger","data-acore-id","element:NoteRow/view/0/3/0/0"],v7);{const v=v8;v.textContent="Delete";on(v,"click",()=>{$remove.run()})}ax(v8,2);}
}])}
}
}
function P_Home(w){const $sort=S("title");const $title=S("");const $body=S("");const $pinned=S(false);const $count=S(0);const $kind=S("note");const $notes=Q("notes","list_notes",()=>({"sort":$sort(),"pinned":null}),[]);const $create=M("notes","create_note",()=>({"title":$title(),"priority":$count()}));function $add(){if(emp($title())){nav("/about");}else {$create.run();$title.set("");$count.set(($count()+1));X("track",{"event":"add","count":$count()});}}function $reverse(){if(eq($sort(),"title")){$sort.set("-title");}else {$sort.set("title");}}function $open($id){X("share",{"text":$id});}
ax(h("span",["hidden","","data-acore-id","query:Home.notes"],w),3);{const v1=h("div",["class","ac-column","data-acore-id","element:Home/view/0"],w);{const v=v1;v.style.gap="16px"}
{const v2=h("h1",["data-acore-id","element:Home/view/0/0"],v1);{const v=v2;tx(v,()=>((((("Notes: "+str($count()))+" / ")+str(dv($count(),2)))+" rest ")+str(md(7,3))))}}
{const v3=h("form",["class","ac-form","data-acore-id","element:Home/view/0/1"],v1);{const v=v3;v.style.gap="8px";on(v,"submit",()=>$add())}ax(v3,1);
{const v5=h("label",["class","ac-field"],v3);h("span",[],v5).textContent="Title";const v4=h("input",["type","text","maxlength","80","placeholder","New note","data-acore-id","element:Home/view/0/1/0"],v5);{const v=v4;bv(v,()=>$title(),$title,null);ky(v,()=>$add())}ax(v4,1);}
{const v6=h("textarea",["rows","3","placeholder","Body","aria-label","Body","data-acore-id","element:Home/view/0/1/1"],v3);{const v=v6;bv(v,()=>$body(),$body,null)}}
{const v7=h("div",["class","ac-row","data-acore-id","element:Home/view/0/1/2"],v3);{const v=v7;v.style.gap="8px"}
{const v9=h("label",["class","ac-check"],v7);const v8=h("input",["type","checkbox","role","switch","data-acore-id","element:Home/view/0/1/2/0"],v9);h("span",[],v9).textContent="Pinned";{const v=v8;bc(v,()=>$pinned(),$pinned,null)}}
{const v11=h("label",["class","ac-field"],v7);h("span",[],v11).textContent="Kind";const v10=h("select",["data-acore-id","element:Home/view/0/1/2/1"],v11);{const v=v10;opts(v,()=>["note","todo"]);bv(v,()=>$kind(),$kind,null)}}
{const v12=h("div",["class","ac-spacer","aria-hidden","true","data-acore-id","element:Home/view/0/1/2/2"],v7);}
{const v13=h("button",["type","button","data-acore-id","element:Home/view/0/1/2/3"],v7);{const v=v13;v.textContent="Add";pr(v,"disabled",()=>emp($title()));on(v,"click",()=>$add())}ax(v13,1);}
}
}
{const v14=h("hr",["data-acore-id","element:Home/view/0/2"],v1);}
{const v15=h("button",["type","button","class","ac-linkbtn","data-acore-id","element:Home/view/0/3"],v1);{const v=v15;v.textContent="Reverse";on(v,"click",()=>$reverse())}}
{const v16=h("div",["class","ac-if","data-acore-id","conditional:Home/view/0/4"],v1);IF(v16,[()=>$notes.pending(),(v17)=>{{const v18=h("span",["class","ac-spinner","role","status","aria-label","Loading notes","data-acore-id","element:Home/view/0/4/0/0"],v17);}
},()=>$notes.error(),(v19)=>{{const v20=h("p",["data-acore-id","element:Home/view/0/4/1/0"],v19);{const v=v20;tx(v,()=>("Error: "+str($notes.error_message())));v.style.color="crimson"}}
},()=>true,(v21)=>{{const v22=h("ul",["class","ac-list","data-acore-id","element:Home/view/0/4/2/0"],v21);L(v22,()=>$notes.data(),($n)=>$n?.id,(v23,$n)=>{{const v24=h("div",["class","ac-comp","data-acore-id","element:Home/view/0/4/2/0/0"],v23);C_NoteRow(v24,{note:()=>$n(),on_open:{f:()=>{$open($n()?.id)},a:null}})}
},()=>"No notes yet",null);}
}])}
{const v25=h("div",["class","ac-row","data-acore-id","element:Home/view/0/5"],v1);
{const v26=h("a",["href","/about","data-acore-id","element:Home/view/0/5/0"],v25);{const v=v26;v.textContent="About";lk(v)}}
{const v27=h("span",["class","ac-icon","role","img","aria-label","Info","data-acore-id","element:Home/view/0/5/1"],v25);{const v=v27;v.textContent="ℹ"}}
{const v28=h("img",["src","/logo.png","alt","Logo","width","24","height","24","data-acore-id","element:Home/view/0/5/2"],v25);}
}
}
}
function P_About(w){
{const v1=h("div",["class","ac-scroll","data-acore-id","element:About/view/0"],w);{const v=v1;v.style.padding="8px"}
{const v2=h("h1",["data-acore-id","element:About/view/0/0"],v1);{const v=v2;v.textContent="About"}}
{const v3=h("p",["class","ac-caption","data-acore-id","element:About/view/0/1"],v1);{const v=v3;v.textContent="Made with acore"}}
{const v4=h("pre",["class","ac-code","data-acore-id","element:About/view/0/2"],v1);{const v=v4;v.textContent="let x = 1"}}
{const v5=h("button",["type","button","data-acore-id","element:About/view/0/3"],v1);{const v=v5;v.textContent="Home";on(v,"click",()=>{nav("/")})}ax(v5,0);}
{const v6=h("a",["href","/","data-acore-id","element:About/view/0/4"],v1);{const v=v6;v.textContent="Home";lk(v)}}
}
}
const R={"/":P_Home,"/about":P_About};
show(0);
