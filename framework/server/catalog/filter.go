package catalog

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// ParseFilter reads a run filter from the query parameters the API and the
// UI share: experiment, plugin, host, device, fs, since, until (RFC 3339 times or
// dates) and limit.
func ParseFilter(q url.Values) (Filter, error) {
	get := func(k string) string { return strings.TrimSpace(q.Get(k)) }
	f := Filter{Experiment: get("experiment"), Plugin: get("plugin"), Hostname: get("host"), Device: get("device"), FSType: get("fs")}
	for _, t := range []struct {
		key string
		dst *time.Time
	}{{"since", &f.Since}, {"until", &f.Until}} {
		v := get(t.key)
		if v == "" {
			continue
		}
		tm, err := time.Parse(time.RFC3339, v)
		if err != nil {
			if tm, err = time.Parse(time.DateOnly, v); err != nil {
				return f, fmt.Errorf("%s=%q: give an RFC 3339 time or a date (2006-01-02)", t.key, v)
			}
		}
		*t.dst = tm
	}
	if v := get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return f, fmt.Errorf("limit=%q: give a number", v)
		}
		f.Limit = n
	}
	return f, nil
}

// Query is the filter as query parameters, for links that can be shared.
func (f Filter) Query() url.Values {
	q := url.Values{}
	set := func(k, v string) {
		if v != "" {
			q.Set(k, v)
		}
	}
	set("experiment", f.Experiment)
	set("plugin", f.Plugin)
	set("host", f.Hostname)
	set("device", f.Device)
	set("fs", f.FSType)
	if !f.Since.IsZero() {
		set("since", f.Since.Format(time.RFC3339))
	}
	if !f.Until.IsZero() {
		set("until", f.Until.Format(time.RFC3339))
	}
	if f.Limit > 0 {
		set("limit", strconv.Itoa(f.Limit))
	}
	return q
}
