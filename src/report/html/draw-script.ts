/**
 * The browser scripts of report.html, as text (they run in the page, not in Node).
 *
 * ERROR_HOOK_SCRIPT runs first, before the library, so any script error lands in
 * `document.body.dataset.chartError`. DRAW_SCRIPT reads the JSON data block, draws one Chart.js
 * chart per entry with animations off (charts are complete when the constructor returns), then
 * marks each chart's container: data-drawn="1", data-pixels (non-transparent canvas pixels) and
 * data-plot-pixels (coloured pixels inside the plot area: series and band, not the grey axes, grid
 * or legend, so it proves data was drawn). It keeps body data-charts-drawn / data-charts-expected
 * current and appends every error to data-chart-error. Headless tests read these attributes.
 * Invariants: plain ES2017 without backticks or backslashes (the text sits verbatim in a
 * TypeScript template literal whose one interpolation is the data element's id); no timers, no
 * network. The drawing is left to Chart.js; only the ink count is ours.
 */

export const DATA_ELEMENT_ID = 'afp-report-data';

export const ERROR_HOOK_SCRIPT = `window.addEventListener('error', function (event) {
  var body = document.body, message = 'script: ' + (event.message || 'error');
  body.dataset.chartError = body.dataset.chartError ? body.dataset.chartError + ' | ' + message : message;
});`;

export const DRAW_SCRIPT = `(function () {
  'use strict';
  var body = document.body;
  var BLUE = '#1f77b4', BAND = 'rgba(31, 119, 180, 0.18)', BAND_EDGE = 'rgba(31, 119, 180, 0.45)';
  var RED = '#d62728', GREEN = '#2ca02c';
  function fail(where, error) {
    var message = where + ': ' + (error && error.message ? error.message : String(error));
    body.dataset.chartError = body.dataset.chartError ? body.dataset.chartError + ' | ' + message : message;
  }
  function percent(value) { return Number((value * 100).toPrecision(6)) + '%'; }
  function usdc(value) { return value.toFixed(2) + ' USDC'; }
  function xy(points, column) {
    return points.map(function (point) { return { x: point[0], y: point[column] }; });
  }
  function level(points, value) {
    return [{ x: points[0][0], y: value }, { x: points[points.length - 1][0], y: value }];
  }
  function line(label, data, color, extra) {
    var dataset = { label: label, data: data, borderColor: color, backgroundColor: color,
      borderWidth: 2, pointRadius: 0, pointHitRadius: 4, pointStyle: 'line', fill: false, spanGaps: false };
    Object.keys(extra).forEach(function (key) { dataset[key] = extra[key]; });
    return dataset;
  }
  function options(x, y, label) {
    return { animation: false, responsive: true, maintainAspectRatio: false,
      interaction: { mode: 'nearest', axis: 'x', intersect: false },
      plugins: {
        legend: { labels: { usePointStyle: true, filter: function (item) { return item.text !== ''; } } },
        tooltip: { filter: function (item) { return item.dataset.label !== ''; },
          callbacks: { label: function (item) { return item.dataset.label + ': ' + label(item.parsed.y); } } }
      },
      scales: { x: x, y: y } };
  }
  function logTicks(points) {
    var decades = Math.log10(points[points.length - 1][0] / points[0][0]);
    var shown = decades > 2 ? [1, 3] : [1, 2, 5];
    return function (value) {
      var power = Math.pow(10, Math.floor(Math.log10(value) + 1e-9));
      var mantissa = Math.round(value / power);
      var round = Math.abs(value / power - mantissa) < 1e-9;
      return round && shown.indexOf(mantissa) >= 0 ? value.toLocaleString('en-US') : '';
    };
  }
  function edgeConfig(game) {
    var points = game.points;
    // Chart.js draws a lower "order" on top: the edge over the reference lines over the band.
    var datasets = [
      line('', xy(points, 3), BAND_EDGE, { borderWidth: 1, order: 3 }),
      line('99% confidence band', xy(points, 2), BAND_EDGE, { borderWidth: 1, fill: '-1', backgroundColor: BAND, pointStyle: 'rect', order: 3 }),
      line('empirical edge', xy(points, 1), BLUE, { order: 0 })
    ];
    if (game.theoretical !== null) {
      datasets.push(line('theoretical edge', level(points, game.theoretical), GREEN, { borderDash: [4, 4], order: 1 }));
    }
    if (game.advertised !== null) {
      datasets.push(line('advertised edge', level(points, game.advertised), RED, { borderWidth: 4, borderDash: [12, 6], order: 2 }));
    }
    var x = { type: game.xScale, title: { display: true, text: 'bets' }, ticks: { maxRotation: 0, autoSkipPadding: 12 } };
    if (game.xScale === 'logarithmic') x.ticks.callback = logTicks(points);
    return { type: 'line', data: { datasets: datasets }, options: options(
      x, { min: game.yMin, max: game.yMax, title: { display: true, text: 'house edge' }, ticks: { callback: percent } },
      percent) };
  }
  function bankrollConfig(bankroll) {
    var datasets = bankroll.lines.map(function (series) {
      return line(series.label, xy(series.points, 1), series.color, {});
    });
    function time(value) { return Number(value.toPrecision(6)) + ' ' + bankroll.unit; }
    return { type: 'line', data: { datasets: datasets }, options: options(
      { type: 'linear', title: { display: true, text: 'virtual time since the first sample (' + bankroll.unit + ')' },
        ticks: { callback: time, maxRotation: 0, autoSkipPadding: 12 } },
      { title: { display: true, text: 'balance (USDC)' } },
      usdc) };
  }
  function ink(chart) {
    var canvas = chart.canvas, width = canvas.width, height = canvas.height;
    var pixels = chart.ctx.getImageData(0, 0, width, height).data;
    var ratio = chart.currentDevicePixelRatio || 1, area = chart.chartArea;
    var left = Math.floor(area.left * ratio), right = Math.ceil(area.right * ratio);
    var top = Math.floor(area.top * ratio), bottom = Math.ceil(area.bottom * ratio);
    var all = 0, plot = 0;
    for (var y = 0; y < height; y += 1) {
      for (var x = 0; x < width; x += 1) {
        var i = (y * width + x) * 4;
        if (pixels[i + 3] === 0) continue;
        all += 1;
        if (x < left || x >= right || y < top || y >= bottom) continue;
        var r = pixels[i], g = pixels[i + 1], b = pixels[i + 2];
        if (Math.max(r, g, b) - Math.min(r, g, b) > 48) plot += 1;
      }
    }
    return { all: all, plot: plot };
  }
  var specs = [], drawn = 0, data;
  try {
    data = JSON.parse(document.getElementById('${DATA_ELEMENT_ID}').textContent);
    data.games.forEach(function (game) { specs.push({ id: game.id, config: edgeConfig(game) }); });
    if (data.bankroll !== null) specs.push({ id: data.bankroll.id, config: bankrollConfig(data.bankroll) });
  } catch (error) { fail('data', error); return; }
  body.dataset.chartsExpected = String(specs.length);
  body.dataset.chartsDrawn = '0';
  if (typeof Chart !== 'function') { fail('library', new Error('Chart.js did not load')); return; }
  specs.forEach(function (spec) {
    try {
      var box = document.getElementById(spec.id);
      var chart = new Chart(box.querySelector('canvas'), spec.config);
      var counted = ink(chart);
      box.dataset.pixels = String(counted.all);
      box.dataset.plotPixels = String(counted.plot);
      box.dataset.drawn = '1';
      drawn += 1;
      body.dataset.chartsDrawn = String(drawn);
    } catch (error) { fail(spec.id, error); }
  });
})();`;
