/**
 * How the live house-edge audit writes an edge: a percentage with 3 decimals, everywhere (the
 * terminal's table, the files, findings.html, the findings' texts), so one figure reads the same in
 * each. Why a file of its own: the findings and the table cells (edge-cells.ts) both write edges,
 * and neither may import the other.
 */

/** A percentage with 3 decimals; never "-0.000%" (an edge of −6e-7 shows as 0.000%). */
export const edgePercentText = (value: number): string => `${(value * 100).toFixed(3).replace(/^-(0\.0+)$/, '$1')}%`;
