package diag

// Routing of Acore 1.1 (docs/language.md 4.3): names (AC2xx) and types
// (AC3xx) of route parameters, route arguments and the app's arguments
// (its routing and its theme).
var (
	UnknownRouteParam  = register("AC235", Error, "unknown route parameter")
	BadPageParam       = register("AC335", Error, "page parameter is not String or Int")
	RouteParamMissing  = register("AC336", Error, "route parameter not given")
	RouteArgNotLiteral = register("AC337", Error, "route argument is not a literal")
	BadRouting         = register("AC338", Error, "invalid app argument")
)
