// Package chart gives plugins the SVG charts the host's reports use: a
// grouped bar chart and a line chart. They are the framework's own charts
// (framework/chart), named here so a plugin needs nothing but the SDK; the
// report embeds the SVG an analyzer hands to sdk.Result.Figure.
package chart

import "github.com/droidprof/droidprof/framework/chart"

// BarChart is a grouped bar chart: one group of bars per category, one bar
// per series in each group; its SVG method renders it.
type BarChart = chart.BarChart

// LineChart draws one line per series over categories or numeric x values;
// its SVG method renders it.
type LineChart = chart.LineChart

// Series is one named set of values, with optional error-bar bounds.
type Series = chart.Series

// HeatMap colours a grid of values, one cell per (column, row); its SVG
// method renders it.
type HeatMap = chart.HeatMap
