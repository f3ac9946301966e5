/**
 * `--defect NAME[,NAME…]` of the in-process commands (afp run, sweep, check): each name a
 * deliberate platform defect (services/shared/context.ts DEFECT_NAMES). Why one parser: the three
 * commands each kept their own, and only the check refused the defects of the deployed stand-in's
 * MCP doors, which nothing in-process calls — run and sweep took them and changed nothing, a demo
 * of a defect that could never fire. The rule is DEFECT_DIALECTS' (afp serve's flags keep it too):
 * in-process is the documents' platform, so a deployed-only defect is refused.
 */
import { DEFECT_DIALECTS, DEFECT_NAMES, type DefectName } from '../services/shared/context.ts';

/** The named defects, each problem pushed onto `errors` (unknown names, MCP-door defects). */
export function inProcessDefects(text: string | undefined, command: string, errors: string[]): DefectName[] {
  const defects: DefectName[] = [];
  for (const name of (text ?? '').split(',').filter((part) => part !== '')) {
    const only = DEFECT_DIALECTS[name as DefectName];
    if (only?.dialect === 'deployed')
      errors.push(`--defect ${name} acts on ${only.where} only, which ${command} never calls: it would change nothing`);
    else if ((DEFECT_NAMES as readonly string[]).includes(name)) defects.push(name as DefectName);
    else errors.push(`unknown --defect '${name}'; known: ${DEFECT_NAMES.join(', ')}`);
  }
  return defects;
}
