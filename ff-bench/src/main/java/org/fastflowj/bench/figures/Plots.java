package org.fastflowj.bench.figures;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Rectangle;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jfree.svg.SVGGraphics2D;
import org.jfree.svg.SVGUtils;

/**
 * Draws a figure's points (the median of each point's repetitions) as a PNG and an SVG with JFreeChart:
 * lines over a numeric x axis, or bars over named categories.
 */
final class Plots {
    private static final int WIDTH = 900;
    private static final int HEIGHT = 560;
    /** Distinct on white and in grey print; a figure has at most about ten measured series. */
    private static final Color[] PALETTE = {
        new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0x9467bd), new Color(0xff7f0e),
        new Color(0x8c564b), new Color(0xe377c2), new Color(0x17becf), new Color(0x7f7f7f), new Color(0xbcbd22)
    };

    private final Path directory;
    private final List<Path> written = new ArrayList<>();

    Plots(Path directory) {
        this.directory = directory;
        System.setProperty("java.awt.headless", "true");
    }

    List<Path> written() {
        return List.copyOf(written);
    }

    /** The median value of every (series, x) of {@code points}, series in first-seen order, x ascending. */
    static Map<String, TreeMap<Double, Double>> medians(List<ResultLog.Point> points) {
        Map<String, TreeMap<Double, List<Double>>> all = new LinkedHashMap<>();
        for (ResultLog.Point p : points) {
            all.computeIfAbsent(p.series(), s -> new TreeMap<>())
                    .computeIfAbsent(p.x(), x -> new ArrayList<>())
                    .add(p.value());
        }
        Map<String, TreeMap<Double, Double>> medians = new LinkedHashMap<>();
        all.forEach((series, byX) -> {
            TreeMap<Double, Double> m = new TreeMap<>();
            byX.forEach((x, values) -> m.put(x, median(values)));
            medians.put(series, m);
        });
        return medians;
    }

    static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /**
     * Lines: one per series; {@code levels} adds a horizontal line per entry (a ceiling measured in the same
     * run) across the x range.
     */
    void lines(
            String name,
            String title,
            String xLabel,
            String yLabel,
            boolean logX,
            boolean logY,
            Map<String, TreeMap<Double, Double>> series,
            Map<String, Double> levels) {
        XYSeriesCollection data = new XYSeriesCollection();
        double minX = Double.MAX_VALUE;
        double maxX = -Double.MAX_VALUE;
        for (Map.Entry<String, TreeMap<Double, Double>> s : series.entrySet()) {
            XYSeries xy = new XYSeries(s.getKey(), true, false);
            s.getValue().forEach(xy::add);
            data.addSeries(xy);
            if (!s.getValue().isEmpty()) {
                minX = Math.min(minX, s.getValue().firstKey());
                maxX = Math.max(maxX, s.getValue().lastKey());
            }
        }
        if (minX == maxX) { // one x: widen so that a level still draws as a line
            minX *= 0.9;
            maxX *= 1.1;
        }
        if (minX < maxX) {
            for (Map.Entry<String, Double> level : levels.entrySet()) {
                XYSeries line = new XYSeries(level.getKey(), true, false);
                line.add(minX, level.getValue());
                line.add(maxX, level.getValue());
                data.addSeries(line);
            }
        }
        JFreeChart chart = ChartFactory.createXYLineChart(
                title, xLabel, yLabel, data, PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = chart.getXYPlot();
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        int measured = series.size();
        // A baseline series ("Netty batch 8", "MPI n=216") takes the colour of its FF-J twin, dashed.
        Map<String, Integer> colourOf = new LinkedHashMap<>();
        List<String> names = new ArrayList<>(series.keySet());
        for (int i = 0; i < data.getSeriesCount(); i++) {
            if (i < measured) {
                String seriesName = names.get(i);
                int colour = colourOf.computeIfAbsent(
                        seriesName.replaceFirst("^(FF-J|Netty|MPI) ", ""), k -> colourOf.size());
                renderer.setSeriesPaint(i, PALETTE[colour % PALETTE.length]);
                renderer.setSeriesStroke(
                        i,
                        seriesName.startsWith("Netty") || seriesName.startsWith("MPI ")
                                ? new BasicStroke(
                                        1.5f,
                                        BasicStroke.CAP_BUTT,
                                        BasicStroke.JOIN_MITER,
                                        10f,
                                        new float[] {3f, 3f},
                                        0f)
                                : new BasicStroke(2f));
            } else { // a ceiling: dashed, no markers
                renderer.setSeriesPaint(i, i == measured ? Color.BLACK : Color.GRAY);
                renderer.setSeriesStroke(
                        i,
                        new BasicStroke(
                                1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
                renderer.setSeriesShapesVisible(i, false);
            }
        }
        plot.setRenderer(renderer);
        if (logX) {
            plot.setDomainAxis(logAxis(xLabel, 2));
        }
        if (logY) {
            plot.setRangeAxis(logAxis(yLabel, 10));
        }
        save(name, chart);
    }

    /** Ticks at whole powers of {@code base}, labelled with their values rather than their exponents. */
    private static LogAxis logAxis(String label, double base) {
        LogAxis axis = new LogAxis(label);
        axis.setBase(base);
        axis.setSmallestValue(1e-6);
        axis.setTickUnit(new NumberTickUnit(1));
        axis.setNumberFormatOverride(new DecimalFormat("#,##0.###"));
        return axis;
    }

    /** Bars: one group per category, one bar per series. */
    void bars(String name, String title, String yLabel, Map<String, Map<String, Double>> valueBySeriesThenCategory) {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        valueBySeriesThenCategory.forEach((series, byCategory) ->
                byCategory.forEach((category, value) -> data.addValue(value, series, category)));
        JFreeChart chart =
                ChartFactory.createBarChart(title, null, yLabel, data, PlotOrientation.VERTICAL, true, false, false);
        chart.getCategoryPlot().setBackgroundPaint(Color.WHITE);
        chart.getCategoryPlot().setRangeGridlinePaint(Color.LIGHT_GRAY);
        save(name, chart);
    }

    private void save(String name, JFreeChart chart) {
        try {
            Files.createDirectories(directory);
            Path png = directory.resolve(name + ".png");
            ChartUtils.saveChartAsPNG(png.toFile(), chart, WIDTH, HEIGHT);
            SVGGraphics2D svg = new SVGGraphics2D(WIDTH, HEIGHT);
            chart.draw(svg, new Rectangle(WIDTH, HEIGHT));
            Path svgFile = directory.resolve(name + ".svg");
            SVGUtils.writeToSVG(svgFile.toFile(), svg.getSVGElement());
            written.add(png);
            written.add(svgFile);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the plot " + name + " into " + directory, e);
        }
    }
}
