package web

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/axiomcore/acore/internal/lang/prepare"
)

// TestCodegen compiles one page that uses each form of expression and
// statement, and looks for the JavaScript each must become.
func TestCodegen(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"contracts/tasks.axiom": `contract Tasks audience "web" {
  model Task {
    id: String
    title: String
    done: Bool
  }

  query list_tasks(done: Bool?, limit: Int = 20): [Task]
  query get_task(id: String): Task?
  mutation create_task(title: String): Task
}
`,
		"web/externs.js": "export function share() {}\n",
		"main.acore": `module codegen

use contract Tasks from "tasks" audience "web"

extern action share(text: String, times: Int?)

app Codegen {
  route "/" => Home
  route "/done" => Done
}

page Home {
  state n: Int = 7
  state x: Float = 2.5
  state s: String = "a"
  state b: Bool = false
  state pick: Task? = null
  state names: [String]
  query tasks = Tasks.list_tasks()
  query one = Tasks.get_task(id: s)
  mutation create = Tasks.create_task(title: s)

  action step(by: Int, note: String) {
    n = n + by
    s = note
  }

  action go() {
    step(note: "x", by: 2)
    if n / 2 > 1 && b == false {
      navigate("/done")
    } else if pick == null {
      share(text: s)
    } else {
      create.run()
      tasks.refresh()
    }
  }

  view {
    Text("i" + n / 2 + n % 3 + (n - -n))
    Text("f" + x / 2 + (n + 1))
    Text("b" + b + s.length + names.count)
    Text("t" + (one.data.title == null))
    Text("e" + names.is_empty + s.is_empty)
    Text("q" + one.error_message, visible: !one.pending && tasks.data.count > 0)
    Button("Go", on_press: go)
    Button("Step", on_press: || step(1, "y"))
    Button("Share", on_press: || share(text: "hi", times: 2))
    Link("Done", to: "/done")
  }
}

page Done {
  view { Text("Done") }
}
`,
	}
	for p, data := range files {
		abs := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := prepare.Run(dir); err != nil {
		t.Fatal(err)
	}
	js := string(build(t, dir).Files["app.js"])
	for _, want := range []string{
		// Integer division and remainder truncate; a Float divides; the
		// printer adds only the parentheses precedence needs.
		`tx(v1,()=>"i"+str(dv($n(),2))+str(md($n(),3))+str($n()- -$n()))`,
		`tx(v2,()=>"f"+str($x()/2)+str($n()+1))`,
		// Bools, String length in scalars, list count.
		`tx(v3,()=>"b"+str($b())+str(len($s()))+str(cnt($names())))`,
		// A field of optional data.
		`tx(v4,()=>"t"+str(eq($one.data()?.title,null)))`,
		`tx(v5,()=>"e"+str(emp($names()))+str(emp($s())))`,
		`pr(v6,"hidden",()=>!(!$one.pending()&&cnt($tasks.data())>0))`,
		// Contract arguments: every parameter, null for an optional one,
		// the default for one with a default.
		`Q("tasks","list_tasks",()=>({done:null,limit:20}),[])`,
		`Q("tasks","get_task",()=>({id:$s()}),null)`,
		`M("tasks","create_task",()=>({title:$s()}))`,
		// Statements.
		`function $step($by,$note){$n.set($n()+$by);$s.set($note);}`,
		`$step(2,"x");if(dv($n(),2)>1&&eq($b(),false)){nav("/done");}else if(eq($pick(),null)){X("share",{text:$s(),times:null});}else{$create.run();$tasks.refresh();}`,
		// Handlers.
		`on(v7,"click",()=>$go())`,
		`on(v8,"click",()=>$step(1,"y"))`,
		`on(v9,"click",()=>X("share",{text:"hi",times:2}))`,
		"const R=[[\"/\",P_Home],[\"/done\",P_Done]];\nshow(0);",
		// The runtime routes on the History API only.
		`addEventListener("popstate",`,
		"const $pick=S(null);\nconst $names=S([]);",
	} {
		if !strings.Contains(js, want) {
			t.Errorf("app.js lacks %s", want)
		}
	}
}
