// The most domains a target lets one agent hold, when a refusal says so (src/live/stated-domain-maximum.ts):
// afp's "agent … already holds the maximum of 1 domains" (409 CONFLICT in the documents' style, 400
// domain_limit_reached in the deployed one) and other plain wordings. Nothing else is read as a
// maximum: a refusal for funds, a name taken, a count of years.
import { describe, expect, it } from 'vitest';
import type { Refusal } from '../../src/live/operations.ts';
import { statedDomainMaximum } from '../../src/live/stated-domain-maximum.ts';

const refusal = (status: number, name: string, message: string): Refusal => ({
  status,
  name,
  message,
  body: { error: name, message },
});

describe('statedDomainMaximum', () => {
  it('reads afp’s words in both styles, and plain others', () => {
    const afp = 'agent ag_4c3415ac354e already holds the maximum of 1 domains';
    expect(statedDomainMaximum(refusal(409, 'CONFLICT', afp))).toBe(1);
    expect(statedDomainMaximum(refusal(400, 'domain_limit_reached', afp))).toBe(1);
    expect(statedDomainMaximum(refusal(400, 'limit_reached', 'an agent may hold at most 25 domains'))).toBe(25);
    expect(statedDomainMaximum(refusal(403, 'forbidden', 'Domain limit of 10 domains reached'))).toBe(10);
    expect(statedDomainMaximum(refusal(400, 'too_many', '5 domains per agent'))).toBe(5);
  });

  it('teaches nothing from other refusals or a count of 0', () => {
    expect(statedDomainMaximum(refusal(400, 'insufficient_balance', 'balance 2.00 is below 14.40'))).toBeNull();
    expect(statedDomainMaximum(refusal(400, 'domain_unavailable', 'afp-1.xyz is not available'))).toBeNull();
    expect(statedDomainMaximum(refusal(400, 'BAD_REQUEST', 'years must be between 1 and 10'))).toBeNull();
    expect(statedDomainMaximum(refusal(400, 'domain_limit_reached', 'the maximum of 0 domains'))).toBeNull();
  });
});
