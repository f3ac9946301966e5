/**
 * How large a scenario file may be. Why apart from scenario.ts: a command reads the file (and
 * refuses a missing or huge one) before it loads the scenario's parser, schema and agents.
 */

/** Scenario files are small; anything larger is a mistake (a log passed by accident). */
export const MAX_SCENARIO_CHARS = 1_048_576;
/** The bytes read of a scenario file at most: its characters' limit at 4 bytes each (UTF-8's most). */
export const MAX_SCENARIO_BYTES = 4 * MAX_SCENARIO_CHARS;
