/**
 * The JUnit XML files (load.junit.xml, findings.junit.xml, sweep.junit.xml), for CI test
 * reporters: one <testsuites> holding one <testsuite> with the run's properties and one
 * <testcase> per thing judged. A report says what its cases are; this writes them all alike.
 * Pure: no timestamps, no durations, no host name.
 *
 * Invariants: well-formed XML 1.0 whatever a name holds (xml-text.ts); every attribute value at
 * most ATTRIBUTE_MAX_CHARS characters (boundedText); a case's body is plain text (escaped here);
 * the suites' counts are the suite's; an empty property list writes no <properties>.
 */
import { boundedText } from '../html/html-text.ts';
import { xmlAttribute, xmlText } from './xml-text.ts';

const ATTRIBUTE_MAX_CHARS = 300;

const attribute = (text: string): string => xmlAttribute(boundedText(text, ATTRIBUTE_MAX_CHARS));

/** How a case ended: passed (nothing), skipped, failed or errored (with a message and a body), or passed with output. */
export type JunitOutcome =
  | { readonly kind: 'pass' }
  | { readonly kind: 'skipped'; readonly message: string }
  | { readonly kind: 'failure' | 'error'; readonly message: string; readonly type: string; readonly body: string }
  | { readonly kind: 'system-out'; readonly body: string };

export interface JunitCase {
  readonly name: string;
  readonly classname: string;
  readonly outcome: JunitOutcome;
}

export interface JunitSuite {
  /** The <testsuites> name, e.g. `afp`. */
  readonly suitesName: string;
  readonly suiteName: string;
  readonly counts: {
    readonly tests: number;
    readonly failures: number;
    readonly errors: number;
    readonly skipped: number;
  };
  readonly properties: readonly (readonly [name: string, value: string])[];
  readonly cases: readonly JunitCase[];
}

function testcase({ name, classname, outcome }: JunitCase): string {
  const open = `    <testcase name="${attribute(name)}" classname="${attribute(classname)}"`;
  const close = '\n    </testcase>';
  switch (outcome.kind) {
    case 'pass':
      return `${open}/>`;
    case 'skipped':
      return `${open}>\n      <skipped message="${attribute(outcome.message)}"/>${close}`;
    case 'failure':
    case 'error':
      return `${open}>\n      <${outcome.kind} message="${attribute(outcome.message)}" type="${attribute(outcome.type)}">${xmlText(outcome.body)}</${outcome.kind}>${close}`;
    case 'system-out':
      return `${open}>\n      <system-out>${xmlText(outcome.body)}</system-out>${close}`;
  }
}

export function renderJunit(suite: JunitSuite): string {
  const { tests, failures, errors, skipped } = suite.counts;
  const counts = `tests="${tests}" failures="${failures}" errors="${errors}" skipped="${skipped}"`;
  const properties = suite.properties.map(
    ([name, value]) => `      <property name="${xmlAttribute(name)}" value="${attribute(value)}"/>`,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${attribute(suite.suitesName)}" ${counts}>`,
    `  <testsuite name="${attribute(suite.suiteName)}" ${counts}>`,
    ...(properties.length === 0 ? [] : ['    <properties>', ...properties, '    </properties>']),
    ...suite.cases.map(testcase),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
