package main

// An operation is what the benchmark times: its preparation (clicks whose
// results it waits for, untimed), then one click from input to paint.
type operation struct {
	Name  string `json:"name"`
	Label string `json:"label"`
	Prep  []step `json:"-"`
	Run   step   `json:"-"`
}

// A step clicks the element of the CSS selector Click, then waits until the
// JavaScript expression Done is true. Before the click the page keeps in
// window.__wb what Done compares with: the first row's id (first), the id
// of the 999th row (r999) and the number of rows (n).
type step struct {
	Click string
	Done  string
}

const rows = `document.querySelectorAll("ul.rows > li")`

func count(n string) string { return rows + `.length === ` + n }

var (
	create1k  = step{"button.run", count("1000") + ` && ` + rows + `[0].querySelector(".id").textContent !== String(__wb.first)`}
	create10k = step{"button.runlots", count("10000")}
	clearRows = step{"button.clear", count("0")}
)

var operations = []operation{
	{Name: "create1k", Label: "create 1,000 rows", Run: create1k},
	{Name: "replace1k", Label: "replace all 1,000 rows", Prep: []step{create1k}, Run: create1k},
	{Name: "update10th", Label: "update every 10th row", Prep: []step{create1k},
		Run: step{"button.update", rows + `[0].querySelector(".lbl").textContent.endsWith(" !!!") && ` + rows + `[990].querySelector(".lbl").textContent.endsWith(" !!!")`}},
	{Name: "select", Label: "select a row", Prep: []step{create1k},
		Run: step{"ul.rows > li:nth-of-type(2) button.lbl", rows + `[1].className.includes("danger")`}},
	{Name: "swap", Label: "swap two rows", Prep: []step{create1k},
		Run: step{"button.swaprows", rows + `[1].querySelector(".id").textContent === String(__wb.r999)`}},
	{Name: "remove", Label: "remove one row", Prep: []step{create1k},
		Run: step{"ul.rows > li:nth-of-type(4) button.remove", count("999")}},
	{Name: "create10k", Label: "create 10,000 rows", Run: create10k},
	{Name: "append1k", Label: "append 1,000 rows to 1,000", Prep: []step{create1k},
		Run: step{"button.add", count("2000")}},
	{Name: "clear1k", Label: "clear 1,000 rows", Prep: []step{create1k}, Run: clearRows},
	{Name: "clear10k", Label: "clear 10,000 rows", Prep: []step{create10k}, Run: clearRows},
}

// remember is evaluated before every click: what Done compares with.
const remember = `(() => { const r = ` + rows + `; window.__wb = {n: r.length,
	first: r.length ? r[0].querySelector(".id").textContent : "",
	r999: r.length > 998 ? r[998].querySelector(".id").textContent : ""}; })()`
