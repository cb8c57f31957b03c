package dev.strand.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Line charts drawn by hand as SVG: log-scale x (concurrency), linear y from zero, one polyline per client. */
final class Svg {

  /** One line: its points (x > 0) and whether it is a reference (drawn dashed). */
  record Series(List<double[]> points, boolean reference) {}

  private static final String[] COLORS = {"#d62728", "#ff7f0e", "#1f77b4", "#aec7e8", "#2ca02c", "#9467bd",
      "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f", "#393b79", "#637939"};
  private static final int W = 820;
  private static final int H = 440;
  private static final int LEFT = 70;
  private static final int RIGHT = 170;
  private static final int TOP = 40;
  private static final int BOTTOM = 50;

  private Svg() {
  }

  static String chart(String title, String yLabel, List<Integer> xs, Map<String, Series> series) {
    double xMin = xs.stream().mapToInt(Integer::intValue).min().orElse(1);
    double xMax = xs.stream().mapToInt(Integer::intValue).max().orElse(10);
    double yMax = series.values().stream().flatMap(s -> s.points().stream()).mapToDouble(p -> p[1]).max().orElse(1);
    yMax = niceCeil(yMax * 1.05);
    double plotW = W - LEFT - RIGHT;
    double plotH = H - TOP - BOTTOM;
    double lx0 = Math.log10(xMin);
    double lx1 = Math.log10(xMax);
    double span = lx1 - lx0 == 0 ? 1 : lx1 - lx0;
    double fxMin = xMin;
    double fyMax = yMax;
    java.util.function.DoubleUnaryOperator px = x -> xs.size() == 1 ? LEFT + plotW / 2
        : LEFT + (Math.log10(x) - lx0) / span * plotW;
    java.util.function.DoubleUnaryOperator py = y -> TOP + plotH - y / fyMax * plotH;

    StringBuilder s = new StringBuilder();
    s.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
        + "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n", W, H, W, H));
    s.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"22\" font-size=\"15\" font-weight=\"bold\">%s</text>%n",
        LEFT, esc(title)));
    for (int i = 0; i <= 5; i++) {
      double y = yMax * i / 5;
      double yy = py.applyAsDouble(y);
      s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>%n",
          LEFT, yy, LEFT + plotW, yy));
      s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", LEFT - 6,
          yy + 4, label(y)));
    }
    for (int x : xs) {
      double xx = px.applyAsDouble(x);
      s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>%n",
          xx, TOP, xx, TOP + plotH));
      s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%d</text>%n", xx,
          TOP + plotH + 16, x));
    }
    s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
        + "stroke=\"#444\"/>%n", LEFT, TOP, plotW, plotH));
    s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">concurrency "
        + "(requests in flight, log scale)</text>%n", LEFT + plotW / 2, H - 12));
    s.append(String.format(Locale.ROOT, "<text x=\"16\" y=\"%.1f\" text-anchor=\"middle\" "
        + "transform=\"rotate(-90 16 %.1f)\">%s</text>%n", TOP + plotH / 2, TOP + plotH / 2, esc(yLabel)));
    int i = 0;
    for (Map.Entry<String, Series> e : series.entrySet()) {
      String color = COLORS[i % COLORS.length];
      String dash = e.getValue().reference() ? " stroke-dasharray=\"6 4\"" : "";
      List<String> pts = new ArrayList<>();
      for (double[] p : e.getValue().points()) {
        pts.add(String.format(Locale.ROOT, "%.1f,%.1f", px.applyAsDouble(Math.max(p[0], fxMin)), py.applyAsDouble(p[1])));
      }
      if (!pts.isEmpty()) {
        s.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"%s\"/>%n",
            color, dash, String.join(" ", pts)));
        for (String pt : pts) {
          String[] xy = pt.split(",");
          s.append(String.format(Locale.ROOT, "<circle cx=\"%s\" cy=\"%s\" r=\"3\" fill=\"%s\"/>%n", xy[0], xy[1], color));
        }
      }
      double ly = TOP + 10 + i * 18;
      s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
          + "stroke-width=\"2\"%s/>%n", LEFT + plotW + 12, ly, LEFT + plotW + 36, ly, color, dash));
      s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\">%s</text>%n", LEFT + plotW + 42, ly + 4,
          esc(e.getKey() + (pts.isEmpty() ? " (failed)" : ""))));
      i++;
    }
    s.append("</svg>\n");
    return s.toString();
  }

  private static double niceCeil(double v) {
    if (v <= 0) {
      return 1;
    }
    double mag = Math.pow(10, Math.floor(Math.log10(v)));
    for (double m : new double[] {1, 2, 2.5, 5, 10}) {
      if (m * mag >= v) {
        return m * mag;
      }
    }
    return 10 * mag;
  }

  private static String label(double v) {
    if (v == 0) {
      return "0";
    }
    if (v >= 10_000) {
      return String.format(Locale.ROOT, "%.0fk", v / 1000);
    }
    if (v >= 1000) {
      return String.format(Locale.ROOT, "%.1fk", v / 1000);
    }
    return String.format(Locale.ROOT, v >= 10 ? "%.0f" : "%.1f", v);
  }

  static String esc(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
