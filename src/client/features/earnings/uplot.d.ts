// uPlot's stylesheet, imported `with { type: "text" }` (EarningsChart/drawChart.ts) and put in a <style> when the chart is drawn.
declare module "uplot/dist/uPlot.min.css" {
  const css: string;
  export default css;
}
