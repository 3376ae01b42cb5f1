package bench

import (
	"context"
	"fmt"
	"os/exec"
	"sort"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/axiomcore/acore/internal/agent/transport/mcp"
)

// toolsList measures what the tool list of acore-semantic mcp costs an
// agent, whose client sends it with every model request: the bytes of the
// tools/list result as the process wrote it, in all and per tool, listed by
// the SDK's client.
func toolsList(o Options, bin, root string) ([]Floor, error) {
	o.logf("tools/list")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	size, err := mcp.MeasureToolsList(ctx, &sdk.CommandTransport{Command: exec.CommandContext(ctx, bin, "mcp", "--root", root)})
	if err != nil {
		return nil, fmt.Errorf("tools/list: %w", err)
	}
	fl := []Floor{{Name: "mcp.tools_list.bytes", Value: float64(size.Total), Unit: "B",
		Note: fmt.Sprintf("%d tools; the client sends this with every model request", len(size.Tools))}}
	names := make([]string, 0, len(size.Tools))
	for name := range size.Tools {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fl = append(fl, Floor{Name: "mcp.tools_list.bytes." + name, Value: float64(size.Tools[name]), Unit: "B"})
	}
	return fl, nil
}
