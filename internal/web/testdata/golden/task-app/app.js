const B="";
const AX=[["axag-intent","task.create","axag-entity","task","axag-action-type","write","axag-description","Runs the contract mutation Tasks.create_task, bound as create in page Home.","axag-operation-id","create_task","axag-required-parameters","[{\"name\":\"title\",\"type\":\"string\"}]"],["axag-intent","task.list","axag-entity","task","axag-action-type","read","axag-description","Runs the contract query Tasks.list_tasks, bound as tasks in page Home.","axag-operation-id","list_tasks","axag-idempotent","true"]];
function P_Home(w){const $draft=S("");const $tasks=Q("tasks","list_tasks",()=>({}),[]);const $create=M("tasks","create_task",()=>({"title":$draft()}));function $submit(){$create.run();$draft.set("");}
ax(h("span",["hidden","","data-acore-id","query:Home.tasks"],w),1);{const v1=h("div",["class","ac-view","data-acore-id","element:Home/view/0"],w);
{const v2=h("input",["type","text","placeholder","Add a task","aria-label","Add a task","data-acore-id","element:Home/view/0/0"],v1);{const v=v2;bv(v,()=>$draft(),$draft,null)}}
{const v3=h("button",["type","button","data-acore-id","element:Home/view/0/1"],v1);{const v=v3;v.textContent="Add";on(v,"click",()=>$submit())}ax(v3,0);}
{const v4=h("div",["class","ac-if","data-acore-id","conditional:Home/view/0/2"],v1);IF(v4,[()=>$tasks.pending(),(v5)=>{{const v6=h("p",["data-acore-id","element:Home/view/0/2/0/0"],v5);{const v=v6;v.textContent="Loading..."}}
},()=>$tasks.error(),(v7)=>{{const v8=h("p",["data-acore-id","element:Home/view/0/2/1/0"],v7);{const v=v8;v.textContent="Could not load tasks"}}
},()=>true,(v9)=>{{const v10=h("ul",["class","ac-list","data-acore-id","element:Home/view/0/2/2/0"],v9);L(v10,()=>$tasks.data(),($task)=>$task?.id,(v11,$task)=>{{const v12=h("p",["data-acore-id","element:Home/view/0/2/2/0/0"],v11);{const v=v12;tx(v,()=>$task()?.title)}}
},null,null);}
}])}
}
}
const R={"/":P_Home};
show(0);
