package diag

// The view of Acore 1.1 (AC330-AC332): placeholders, inline runs and
// headings.
var (
	MisplacedChildren = register("AC330", Error, "Children placeholder out of place")
	BadRun            = register("AC331", Error, "invalid inline run")
	HeadingLevel      = register("AC332", Error, "heading level is not a literal")
)
