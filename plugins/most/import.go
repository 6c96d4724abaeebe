package most

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/droidprof/droidprof/framework/sdk"
	"github.com/droidprof/droidprof/storage/revmap"
)

func collectImport(ctx context.Context, step *sdk.Step) error {
	var cfg ImportConfig
	if err := step.Decode(&cfg); err != nil {
		return err
	}
	arts, err := runImport(cfg, step.Dir)
	if aerr := step.AddArtifacts(arts...); err == nil {
		err = aerr
	}
	return err
}

// runImport copies a trace (and a map) captured elsewhere into the step, so
// the run holds everything its analysis reads.
func runImport(cfg ImportConfig, outDir string) ([]sdk.Artifact, error) {
	meta := Meta{Source: "import", PartitionStart: cfg.PartitionStart, Format: cfg.Format}
	if cfg.Device != "" {
		ma, mi, ok := strings.Cut(cfg.Device, ",")
		a, err1 := strconv.ParseUint(ma, 10, 32)
		b, err2 := strconv.ParseUint(mi, 10, 32)
		if !ok || err1 != nil || err2 != nil {
			return nil, fmt.Errorf("most: device %q is not major,minor", cfg.Device)
		}
		meta.Major, meta.Minor, meta.Device = uint32(a), uint32(b), cfg.Device
	}
	var arts []sdk.Artifact
	if err := copyFile(cfg.Trace, filepath.Join(outDir, TraceFile)); err != nil {
		return nil, err
	}
	arts = append(arts, sdk.Artifact{Name: TraceFile, Kind: sdk.KindRaw, MediaType: "text/plain", Title: "imported trace " + filepath.Base(cfg.Trace)})
	if cfg.FSMap != "" {
		var m FSMap
		if err := readJSON(cfg.FSMap, &m); err != nil {
			return arts, err
		}
		if err := copyFile(cfg.FSMap, filepath.Join(outDir, FSMapFile)); err != nil {
			return arts, err
		}
		arts = append(arts, sdk.Artifact{Name: FSMapFile, Kind: sdk.KindRaw, MediaType: "application/json", Title: "imported filesystem map"})
	}
	if cfg.Names != "" {
		var n []revmap.NameEvent
		if err := readJSON(cfg.Names, &n); err != nil {
			return arts, err
		}
		if err := copyFile(cfg.Names, filepath.Join(outDir, NamesFile)); err != nil {
			return arts, err
		}
		arts = append(arts, sdk.Artifact{Name: NamesFile, Kind: sdk.KindRaw, MediaType: "application/json", Title: "imported names"})
	}
	if err := writeJSON(filepath.Join(outDir, MetaFile), meta); err != nil {
		return arts, err
	}
	return append(arts, sdk.Artifact{Name: MetaFile, Kind: sdk.KindRaw, MediaType: "application/json", Title: "what was imported"}), nil
}

func copyFile(src, dst string) (err error) {
	in, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("most: %w", err)
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return fmt.Errorf("most: %w", err)
	}
	defer func() { err = errors.Join(err, out.Close()) }()
	if _, err := io.Copy(out, in); err != nil {
		return fmt.Errorf("most: copy %s: %w", src, err)
	}
	return nil
}
