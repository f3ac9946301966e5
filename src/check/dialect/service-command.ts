/**
 * A command of a service that keeps accounts of its own (trading, domains: dialect-model-services.ts).
 * It applies only while the check holds its accounts there (that part of the model is not null) and
 * the row's own condition on that part holds; its body gets that part. Why one place: every trading
 * and domains command of dialect-commands-services.ts, -trading.ts and -domains.ts opens the same
 * way, and a command that ran without its accounts is a bug of the check (thrown, never a mismatch).
 * A domains command on one of the run's names gets that name (runNameCommand).
 */
import { Command } from './dialect-commands.ts';
import type { DialectModel, DialectSystem } from './dialect-model.ts';
import { runDomainName, type DialectDomainsModel } from './dialect-model-services.ts';

type ServicePart = 'trading' | 'domains';
type PartModel<S extends ServicePart> = NonNullable<DialectModel[S]>;

function partOf<S extends ServicePart>(model: Readonly<DialectModel>, service: S): PartModel<S> {
  const part = model[service];
  if (part === null) throw new Error(`a ${service} command ran without the check's ${service} accounts`);
  return part as PartModel<S>;
}

/** A command on the check's accounts of `service`; `applies` is asked only while they exist. */
export function serviceCommand<S extends ServicePart>(
  service: S,
  label: string,
  applies: (part: Readonly<PartModel<S>>) => boolean,
  body: (part: PartModel<S>, system: DialectSystem) => Promise<void>,
): Command {
  return new Command(
    label,
    (model) => model[service] !== null && applies(partOf(model, service)),
    async (model, system) => body(partOf(model, service), system),
  );
}

/** A domains command on the run's name #`index` (runDomainName): its condition and body get the name. */
export function runNameCommand(
  label: string,
  index: number,
  applies: (domains: Readonly<DialectDomainsModel>, name: string) => boolean,
  body: (domains: DialectDomainsModel, name: string, system: DialectSystem) => Promise<void>,
): Command {
  return serviceCommand(
    'domains',
    label,
    (domains) => applies(domains, runDomainName(domains.tag, index)),
    async (domains, system) => body(domains, runDomainName(domains.tag, index), system),
  );
}
