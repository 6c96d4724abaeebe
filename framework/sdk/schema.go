package sdk

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/droidprof/droidprof/framework/api"
	"github.com/droidprof/droidprof/framework/units"
)

var (
	sizeType     = reflect.TypeOf(Size(0))
	durationType = reflect.TypeOf(time.Duration(0))
)

// SchemaOf derives the configuration schema of a struct value (or pointer to
// one) from its field tags; see the package documentation.
func SchemaOf(cfg any) (*api.Schema, error) {
	t := reflect.TypeOf(cfg)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("sdk: config must be a struct, got %T", cfg)
	}
	return schemaOfType(t)
}

func schemaOfType(t reflect.Type) (*api.Schema, error) {
	s := &api.Schema{}
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			return nil, fmt.Errorf("sdk: %s.%s has no json tag naming its config key", t.Name(), sf.Name)
		}
		f := &api.Field{Name: name, Doc: sf.Tag.Get("doc"), Required: sf.Tag.Get("required") == "true"}
		typ, err := fieldType(sf.Type)
		if err != nil {
			return nil, fmt.Errorf("sdk: %s.%s: %w", t.Name(), sf.Name, err)
		}
		f.Type = typ
		if typ == api.Field_TYPE_BLOCK {
			if f.Block, err = schemaOfType(sf.Type); err != nil {
				return nil, err
			}
		}
		if e := sf.Tag.Get("enum"); e != "" {
			f.Enum = strings.Split(e, ",")
		}
		for _, b := range []struct {
			tag string
			has *bool
			v   *float64
		}{{"min", &f.HasMin, &f.Min}, {"max", &f.HasMax, &f.Max}} {
			if v := sf.Tag.Get(b.tag); v != "" {
				x, err := strconv.ParseFloat(v, 64)
				if err != nil {
					return nil, fmt.Errorf("sdk: %s.%s: bad %s tag %q", t.Name(), sf.Name, b.tag, v)
				}
				*b.has, *b.v = true, x
			}
		}
		if d, ok := sf.Tag.Lookup("default"); ok {
			v, err := ParseValue(f, d)
			if err != nil {
				return nil, fmt.Errorf("sdk: %s.%s: default: %w", t.Name(), sf.Name, err)
			}
			js, _ := json.Marshal(v)
			f.DefaultJson = string(js)
		}
		s.Fields = append(s.Fields, f)
	}
	return s, nil
}

func fieldType(t reflect.Type) (api.Field_Type, error) {
	switch t {
	case sizeType:
		return api.Field_TYPE_SIZE, nil
	case durationType:
		return api.Field_TYPE_DURATION, nil
	}
	switch t.Kind() {
	case reflect.String:
		return api.Field_TYPE_STRING, nil
	case reflect.Bool:
		return api.Field_TYPE_BOOL, nil
	case reflect.Int, reflect.Int32, reflect.Int64:
		return api.Field_TYPE_INT, nil
	case reflect.Float64, reflect.Float32:
		return api.Field_TYPE_FLOAT, nil
	case reflect.Struct:
		return api.Field_TYPE_BLOCK, nil
	case reflect.Slice:
		switch t.Elem().Kind() {
		case reflect.String:
			return api.Field_TYPE_STRING_LIST, nil
		case reflect.Int, reflect.Int32, reflect.Int64:
			return api.Field_TYPE_INT_LIST, nil
		case reflect.Float64, reflect.Float32:
			return api.Field_TYPE_FLOAT_LIST, nil
		}
	}
	return 0, fmt.Errorf("unsupported config field type %s", t)
}

// ParseValue converts the text form of a value (as written in a default tag,
// an environment variable or a --set flag) into the JSON-ready Go value the
// field's type calls for. Lists are comma-separated.
func ParseValue(f *api.Field, s string) (any, error) {
	switch f.Type {
	case api.Field_TYPE_STRING:
		return s, nil
	case api.Field_TYPE_BOOL:
		return strconv.ParseBool(s)
	case api.Field_TYPE_INT:
		return strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	case api.Field_TYPE_FLOAT:
		return strconv.ParseFloat(strings.TrimSpace(s), 64)
	case api.Field_TYPE_SIZE:
		return units.ParseSize(s)
	case api.Field_TYPE_DURATION:
		d, err := time.ParseDuration(strings.TrimSpace(s))
		return int64(d), err
	case api.Field_TYPE_STRING_LIST, api.Field_TYPE_INT_LIST, api.Field_TYPE_FLOAT_LIST:
		elem := &api.Field{Type: map[api.Field_Type]api.Field_Type{
			api.Field_TYPE_STRING_LIST: api.Field_TYPE_STRING,
			api.Field_TYPE_INT_LIST:    api.Field_TYPE_INT,
			api.Field_TYPE_FLOAT_LIST:  api.Field_TYPE_FLOAT,
		}[f.Type]}
		out := []any{}
		if strings.TrimSpace(s) == "" {
			return out, nil
		}
		for _, part := range strings.Split(s, ",") {
			v, err := ParseValue(elem, strings.TrimSpace(part))
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	}
	return nil, fmt.Errorf("a %s cannot be written as text", f.Type)
}

// decodeConfig unmarshals a JSON config into the struct that cfg points to,
// after filling in the schema's defaults for keys the JSON leaves out (the host
// already does so; tests and other callers may not). Unknown keys are an
// error: the host and the plugin disagree about the schema.
func decodeConfig(schema *api.Schema, data []byte, cfg any) error {
	var given map[string]any
	if len(data) > 0 {
		if err := json.Unmarshal(data, &given); err != nil {
			return fmt.Errorf("decode config: %w", err)
		}
	}
	merged, err := json.Marshal(withDefaults(schema, given))
	if err != nil {
		return fmt.Errorf("decode config: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(merged))
	dec.DisallowUnknownFields()
	if err := dec.Decode(cfg); err != nil {
		return fmt.Errorf("decode config: %w", err)
	}
	return nil
}

func withDefaults(schema *api.Schema, given map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range given {
		out[k] = v
	}
	for _, f := range schema.GetFields() {
		v, ok := out[f.Name]
		switch {
		case f.Type == api.Field_TYPE_BLOCK:
			sub, _ := v.(map[string]any)
			if ok && sub == nil {
				continue // not an object: let the decoder report it
			}
			out[f.Name] = withDefaults(f.Block, sub)
		case !ok && f.DefaultJson != "":
			var d any
			if json.Unmarshal([]byte(f.DefaultJson), &d) == nil {
				out[f.Name] = d
			}
		}
	}
	return out
}
