// Package catalog is the element catalog of the acore-ui profile: every
// built-in view element, its properties with their types, whether each is
// required, the values a property allows and what children an element
// takes. The checker enforces it; docs/language.md prints it.
package catalog

// Version is pinned by the UI lock; a project locked to another catalog
// must be prepared again.
const Version = "1.1.0"

// Version10 is the catalog of Acore 1.0, which a lock may still pin: its
// sources compile unchanged, and a construct of 1.1 in them is AC507.
const Version10 = "1.0.0"

// PropType is the type of an element property.
type PropType string

// Property types. Float accepts integer literals too.
const (
	String  PropType = "String"
	Int     PropType = "Int"
	Float   PropType = "Float"
	Bool    PropType = "Bool"
	Action  PropType = "Action"
	Items   PropType = "List"     // a list of any element type
	Strings PropType = "[String]" // a list of strings
	KeyFunc PropType = "Key"      // |item| expr, a stable key per item
	// ItemString is |item| expr of a String, computed per item (a List's
	// item_class).
	ItemString PropType = "ItemString"
)

// Children says what an element's { } block holds.
type Children uint8

// Children rules.
const (
	NoChildren   Children = iota // no block allowed
	AnyChildren                  // elements and conditionals
	ItemTemplate                 // required `{ item => ... }` block
	Runs                         // inline runs: Text, Strong and Emphasis
)

// Prop is one property of an element.
type Prop struct {
	Name     string
	Type     PropType
	Required bool
	// Values lists the allowed values of a String property; empty allows any.
	Values []string
	// Min is the smallest allowed Int value when HasMin.
	Min    int64
	HasMin bool
	// Max is the largest allowed Int value when HasMax.
	Max    int64
	HasMax bool
	Doc    string
}

// Element is one built-in element.
type Element struct {
	Name string
	Doc  string
	// Primary is the property a positional first argument sets, or "".
	Primary  string
	Props    []Prop
	Children Children
	// Since is the catalog version that added the element; "" is 1.0.
	Since string
}

// Prop returns the property called name.
func (e *Element) Prop(name string) (*Prop, bool) {
	for i := range e.Props {
		if e.Props[i].Name == name {
			return &e.Props[i], true
		}
	}
	return nil, false
}

var (
	alignValues   = []string{"start", "center", "end", "stretch"}
	justifyValues = []string{"start", "center", "end", "space_between", "space_around", "space_evenly"}
)

func layoutProps(extra ...Prop) []Prop {
	base := []Prop{
		{Name: "padding", Type: Int, Min: 0, HasMin: true, Doc: "inner spacing in points"},
		{Name: "gap", Type: Int, Min: 0, HasMin: true, Doc: "spacing between children in points"},
		{Name: "align", Type: String, Values: alignValues, Doc: "cross-axis alignment of children"},
		{Name: "justify", Type: String, Values: justifyValues, Doc: "main-axis distribution of children"},
		{Name: "background", Type: String, Doc: "background color, a CSS color"},
		{Name: "visible", Type: Bool, Doc: "false hides the element"},
	}
	return append(append(base, extra...), doublePress, class)
}

// The properties Acore 1.1 added to elements of 1.0 (see Since11).
var (
	class       = Prop{Name: "class", Type: String, Doc: "class names of the project's stylesheet, apart by spaces, added to the theme's"}
	doublePress = Prop{Name: "on_double_press", Type: Action, Doc: "runs when the element is double-pressed (double-clicked)"}
	focus       = Prop{Name: "on_focus", Type: Action, Doc: "runs when the element takes the focus"}
	blur        = Prop{Name: "on_blur", Type: Action, Doc: "runs when the element loses the focus"}
	cancel      = Prop{Name: "on_cancel", Type: Action, Doc: "runs when the user presses Escape in the field"}
	autofocus   = Prop{Name: "autofocus", Type: Bool, Doc: "true focuses the field when it appears"}
)

// Since11 reports whether property name of element was added by Acore
// 1.1, which a project locked to 1.0 may not use.
func Since11(element, name string) bool {
	switch name {
	case "class", "on_double_press", "on_focus", "on_blur", "on_cancel", "autofocus", "item_class":
		return true
	case "on_submit":
		return element == "TextArea"
	}
	return false
}

var elements = []Element{
	{Name: "View", Doc: "A container that stacks its children.", Children: AnyChildren,
		Props: layoutProps(Prop{Name: "direction", Type: String, Values: []string{"column", "row"}, Doc: "stacking direction (default column)"})},
	{Name: "Row", Doc: "A container that lays its children out horizontally.", Children: AnyChildren, Props: layoutProps()},
	{Name: "Column", Doc: "A container that lays its children out vertically.", Children: AnyChildren, Props: layoutProps()},
	{Name: "ScrollView", Doc: "A container whose content scrolls.", Children: AnyChildren,
		Props: layoutProps(Prop{Name: "scroll_orientation", Type: String, Values: []string{"vertical", "horizontal"}, Doc: "scroll axis (default vertical)"})},
	{Name: "Form", Doc: "A group of inputs submitted together.", Children: AnyChildren,
		Props: layoutProps(Prop{Name: "on_submit", Type: Action, Doc: "runs when the form is submitted"})},
	{Name: "Header", Doc: "A landmark: the introduction of a page or a section, stacking its children.", Children: AnyChildren, Props: layoutProps(), Since: Version},
	{Name: "Footer", Doc: "A landmark: the end matter of a page or a section, stacking its children.", Children: AnyChildren, Props: layoutProps(), Since: Version},
	{Name: "Section", Doc: "A landmark: a thematic group of content, stacking its children.", Children: AnyChildren, Props: layoutProps(), Since: Version},
	{Name: "Heading", Doc: "A heading of a page or section, for its outline.", Primary: "text", Since: Version, Props: []Prop{
		{Name: "text", Type: String, Required: true, Doc: "the heading's text"},
		{Name: "level", Type: Int, Min: 1, HasMin: true, Max: 6, HasMax: true, Doc: "outline level, a literal (default 1)"},
		{Name: "visible", Type: Bool, Doc: "false hides the element"},
		doublePress, class,
	}},
	{Name: "Text", Doc: "A run of text, or a paragraph of inline runs.", Primary: "text", Children: Runs, Props: []Prop{
		{Name: "text", Type: String, Doc: "the text shown; required unless the block holds runs"},
		{Name: "style", Type: String, Values: []string{"body", "title", "subtitle", "caption", "code"}, Doc: "typographic style (default body)"},
		{Name: "color", Type: String, Doc: "text color, a CSS color"},
		{Name: "max_lines", Type: Int, Min: 1, HasMin: true, Doc: "truncate after this many lines"},
		{Name: "visible", Type: Bool, Doc: "false hides the element"},
		doublePress, class,
	}},
	{Name: "Label", Doc: "A caption of a control, or text a user acts on as a control's (as TodoMVC's item titles).", Primary: "text", Since: Version, Props: []Prop{
		{Name: "text", Type: String, Required: true, Doc: "the text shown"},
		{Name: "visible", Type: Bool, Doc: "false hides the element"},
		doublePress, class,
	}},
	{Name: "Strong", Doc: "An inline run of strong importance, inside a Text.", Primary: "text", Since: Version, Props: []Prop{
		{Name: "text", Type: String, Required: true, Doc: "the text shown"},
		{Name: "visible", Type: Bool, Doc: "false hides the element"},
		class,
	}},
	{Name: "Emphasis", Doc: "An inline run of stress emphasis, inside a Text.", Primary: "text", Since: Version, Props: []Prop{
		{Name: "text", Type: String, Required: true, Doc: "the text shown"},
		{Name: "visible", Type: Bool, Doc: "false hides the element"},
		class,
	}},
	{Name: "Input", Doc: "A single-line text field bound to a String state.", Props: []Prop{
		{Name: "value", Type: String, Required: true, Doc: "the current text; bind it to a state"},
		{Name: "placeholder", Type: String, Doc: "hint shown while empty"},
		{Name: "label", Type: String, Doc: "accessible label"},
		{Name: "input_type", Type: String, Values: []string{"text", "email", "password", "number", "search", "tel", "url"}, Doc: "keyboard and validation (default text)"},
		{Name: "max_length", Type: Int, Min: 1, HasMin: true, Doc: "longest accepted text"},
		{Name: "disabled", Type: Bool, Doc: "true refuses input"},
		{Name: "on_change", Type: Action, Doc: "runs after each change"},
		{Name: "on_submit", Type: Action, Doc: "runs when the user submits the field (Enter)"},
		cancel, focus, blur, autofocus, class,
	}},
	{Name: "TextArea", Doc: "A multi-line text field bound to a String state.", Props: []Prop{
		{Name: "value", Type: String, Required: true, Doc: "the current text; bind it to a state"},
		{Name: "placeholder", Type: String, Doc: "hint shown while empty"},
		{Name: "label", Type: String, Doc: "accessible label"},
		{Name: "rows", Type: Int, Min: 1, HasMin: true, Doc: "visible lines"},
		{Name: "disabled", Type: Bool, Doc: "true refuses input"},
		{Name: "on_change", Type: Action, Doc: "runs after each change"},
		{Name: "on_submit", Type: Action, Doc: "runs when the user submits the field (Ctrl+Enter or ⌘+Enter; Enter starts a new line)"},
		cancel, focus, blur, autofocus, class,
	}},
	{Name: "Button", Doc: "A pressable button.", Primary: "label", Props: []Prop{
		{Name: "label", Type: String, Required: true, Doc: "the button's text"},
		{Name: "on_press", Type: Action, Required: true, Doc: "runs when pressed"},
		{Name: "variant", Type: String, Values: []string{"primary", "secondary", "danger", "link"}, Doc: "visual weight (default primary)"},
		{Name: "disabled", Type: Bool, Doc: "true refuses presses"},
		{Name: "visible", Type: Bool, Doc: "false hides the element"},
		focus, blur, class,
	}},
	{Name: "Checkbox", Doc: "A checkable box bound to a Bool state.", Props: []Prop{
		{Name: "checked", Type: Bool, Required: true, Doc: "whether it is checked"},
		{Name: "label", Type: String, Doc: "text beside the box"},
		{Name: "disabled", Type: Bool, Doc: "true refuses changes"},
		{Name: "on_change", Type: Action, Doc: "runs after each change"},
		focus, blur, class,
	}},
	{Name: "Switch", Doc: "An on/off toggle bound to a Bool state.", Props: []Prop{
		{Name: "on", Type: Bool, Required: true, Doc: "whether it is on"},
		{Name: "label", Type: String, Doc: "text beside the switch"},
		{Name: "disabled", Type: Bool, Doc: "true refuses changes"},
		{Name: "on_change", Type: Action, Doc: "runs after each change"},
		focus, blur, class,
	}},
	{Name: "Select", Doc: "A choice among fixed options, bound to a String state.", Props: []Prop{
		{Name: "value", Type: String, Required: true, Doc: "the chosen option"},
		{Name: "options", Type: Strings, Required: true, Doc: "the options offered"},
		{Name: "label", Type: String, Doc: "accessible label"},
		{Name: "on_change", Type: Action, Doc: "runs after each change"},
		focus, blur, class,
	}},
	{Name: "Image", Doc: "An image.", Primary: "src", Props: []Prop{
		{Name: "src", Type: String, Required: true, Doc: "image URL or asset path"},
		{Name: "alt", Type: String, Required: true, Doc: "text alternative for assistive technology"},
		{Name: "width", Type: Int, Min: 0, HasMin: true, Doc: "width in points"},
		{Name: "height", Type: Int, Min: 0, HasMin: true, Doc: "height in points"},
		{Name: "fit", Type: String, Values: []string{"contain", "cover", "fill"}, Doc: "how the image fills its box (default contain)"},
		class,
	}},
	{Name: "Icon", Doc: "A named icon from the platform's set.", Primary: "name", Props: []Prop{
		{Name: "name", Type: String, Required: true, Doc: "icon name"},
		{Name: "size", Type: Int, Min: 1, HasMin: true, Doc: "size in points"},
		{Name: "color", Type: String, Doc: "icon color, a CSS color"},
		{Name: "label", Type: String, Doc: "accessible label; omit for decorative icons"},
		class,
	}},
	{Name: "Link", Doc: "Text that navigates to a route of the app.", Primary: "label", Props: []Prop{
		{Name: "label", Type: String, Required: true, Doc: "the link's text"},
		{Name: "to", Type: String, Required: true, Doc: "a route path of the app"},
		class,
	}},
	{Name: "List", Doc: "A list of items rendered by an item template.", Children: ItemTemplate, Props: []Prop{
		{Name: "items", Type: Items, Required: true, Doc: "the items, a list"},
		{Name: "key", Type: KeyFunc, Required: true, Doc: "a stable key per item, as |item| item.id"},
		{Name: "list_type", Type: String, Values: []string{"single", "grid"}, Doc: "one column or a grid (default single)"},
		{Name: "span_count", Type: Int, Min: 1, HasMin: true, Doc: "columns of a grid; 1 for single"},
		{Name: "scroll_orientation", Type: String, Values: []string{"vertical", "horizontal"}, Doc: "scroll axis (default vertical)"},
		{Name: "empty_text", Type: String, Doc: "shown when there are no items"},
		{Name: "on_end_reached", Type: Action, Doc: "runs when the user scrolls to the end"},
		{Name: "item_class", Type: ItemString, Doc: "class names of each item's row, as |t| if t.done then \"done\" else \"\""},
		class,
	}},
	{Name: "Spacer", Doc: "Empty space.", Props: []Prop{
		{Name: "size", Type: Int, Min: 0, HasMin: true, Doc: "size in points; omitted fills the free space"},
		class,
	}},
	{Name: "Divider", Doc: "A thin separating line.", Props: []Prop{
		{Name: "color", Type: String, Doc: "line color, a CSS color"},
		class,
	}},
	{Name: "Spinner", Doc: "An activity indicator.", Props: []Prop{
		{Name: "size", Type: String, Values: []string{"small", "large"}, Doc: "indicator size (default small)"},
		{Name: "label", Type: String, Doc: "accessible label"},
		class,
	}},
	{Name: "Children", Doc: "In a component's view: where the children block of the component's instance goes.", Since: Version},
}

var byName = func() map[string]*Element {
	m := make(map[string]*Element, len(elements))
	for i := range elements {
		m[elements[i].Name] = &elements[i]
	}
	return m
}()

// Lookup returns the built-in element called name.
func Lookup(name string) (*Element, bool) {
	e, ok := byName[name]
	return e, ok
}

// All returns every element in catalog order. Callers must not modify it.
func All() []Element { return elements }
