/**
 * The JavaScript every exported k6 script shares, as text: the iteration's draws, agent
 * identities, one `send` through the endpoint table (tags, expected statuses, the status check),
 * money in both styles, registration and the faucet claims (src/sim/agent-kit.ts on the wire).
 *
 * Invariants of the emitted code: every request carries the tags `endpoint` (afp's route id, so
 * `http_req_duration{endpoint:escrow.B.create}` works in k6 as in afp) and `name` (the path
 * template, so ids in paths do not explode k6's URL series); `responseCallback` lists the
 * statuses the agent expects as normal answers, so `http_req_failed` counts only the others (429
 * included, unless the flow expects it); a 429 passes the status check (a rate limit is an
 * expected refusal for afp's agents, not a broken rule) and ends the move. Draws come from a
 * mulberry32 stream seeded by the scenario seed and the iteration number: the same iteration
 * makes the same choices in every run, whichever VU runs it. Money is integer micro-USDC
 * (JavaScript numbers: amounts stay below 2^53). The text is constant: byte-stable.
 * Non-goals: afp's exact draws (afp's rng is Alea (seedrandom's generator) with named forks; the probabilities are
 * the same, the sequences are not).
 */

export const K6_RUNTIME = `// ---- runtime: draws, identities, requests, checks, money ----

/** FNV-1a of the text: the seed of a stream of draws. */
function hashText(text) {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/** mulberry32 seeded by the scenario seed and a label: the same label draws the same numbers. */
function drawsFor(label) {
  let state = hashText(SEED + ':' + label);
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), state | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return (mixed ^ (mixed >>> 14)) >>> 0;
  };
  const int = (maxExclusive) => Math.floor((next() / 4294967296) * maxExclusive);
  return {
    int,
    /** Probabilities are basis points, as in afp's params. */
    chance: (basisPoints) => int(10000) < basisPoints,
    weighted: (weights) => {
      let draw = int(weights.reduce((sum, weight) => sum + weight, 0));
      for (let index = 0; index < weights.length; index++) {
        if (draw < weights[index]) return index;
        draw -= weights[index];
      }
      return weights.length - 1;
    },
    hex: (byteCount) => {
      let text = '';
      while (text.length < byteCount * 2) text += next().toString(16).padStart(8, '0');
      return text.slice(0, byteCount * 2);
    },
  };
}

/** A documentation-range address (RFC 3849) per agent: the per-IP register limit keys on it. */
function ipOf(group, index) {
  return '2001:db8:' + group.toString(16) + ':' + Math.floor(index / 65536).toString(16) + '::' + (index % 65536).toString(16);
}

function newAgent(id, ip, style, draws, urls) {
  return { id, ip, style, draws, urls, key: null, claimedA: false, nextClaimB: false };
}

function jsonOf(text) {
  if (typeof text !== 'string') return null;
  try {
    return JSON.parse(text);
  } catch (error) {
    return null;
  }
}

const CALLBACKS = {};

function expectedStatuses(accepted) {
  const key = accepted.join(',');
  if (CALLBACKS[key] === undefined) CALLBACKS[key] = http.expectedStatuses(...accepted);
  return CALLBACKS[key];
}

/**
 * One request of an endpoint row: input { id, query, body }. Checks that the status is one the
 * agent accepts (or 429); answers { status, limited, body, code }.
 */
function send(agent, endpoint, accepted, input) {
  const row = ENDPOINTS[endpoint];
  const base = agent.urls[row.mount];
  const path = input.id === undefined ? row.path : row.path.replace(':id', encodeURIComponent(input.id));
  const query = input.query === undefined ? '' : '?' + Object.keys(input.query).map((name) => encodeURIComponent(name) + '=' + encodeURIComponent(String(input.query[name]))).join('&');
  const headers = { accept: 'application/json', 'x-forwarded-for': agent.ip };
  if (agent.key !== null) headers.authorization = 'Bearer ' + agent.key;
  let body = null;
  if (input.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(input.body);
  }
  const response = http.request(row.method, base + path + query, body, {
    headers,
    tags: { endpoint, name: row.mount + ' ' + row.method + ' ' + row.path },
    responseCallback: expectedStatuses(accepted),
    timeout: REQUEST_TIMEOUT,
  });
  const limited = response.status === 429;
  const expected = accepted.join(' or ') + (accepted.indexOf(429) >= 0 ? '' : ' (or 429)');
  check(response, { [endpoint + ' answers ' + expected]: (answer) => limited || accepted.indexOf(answer.status) >= 0 });
  const parsed = jsonOf(response.body);
  const code = parsed !== null && typeof parsed.code === 'string' ? parsed.code : null;
  return { status: response.status, limited, body: parsed, code };
}

/** A rule the agent checks on an answer (afp's context.report), as a k6 check. */
function judge(name, ok) {
  check(null, { [name]: () => ok });
  return ok;
}

/** JSON number (style A) or decimal text (style B) → integer micro-USDC, or null. */
function microOf(value) {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string') return null;
  const match = /^(\\d{1,12})(?:\\.(\\d{1,6}))?$/.exec(text);
  if (match === null) return null;
  return Number(match[1]) * 1000000 + Number((match[2] || '').padEnd(6, '0'));
}

/** Money as the style sends it: A a JSON number, B decimal text with at least two decimals. */
function moneyOut(style, micro) {
  if (style === 'A') return micro / 1000000;
  let fraction = String(micro % 1000000).padStart(6, '0');
  while (fraction.length > 2 && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  return Math.floor(micro / 1000000) + '.' + fraction;
}

const FRAMEWORKS = ['langchain', 'autogen', 'crewai', 'eliza', 'semantic-kernel', 'custom'];

/** Registration in the agent's style (B sends framework metadata); learns the key. */
function register(agent, referrer) {
  const withReferrer = referrer === null ? {} : { referrer };
  const answer = agent.style === 'A'
    ? send(agent, 'faucet.A.register', [201], { body: { agent_id: agent.id, ...withReferrer } })
    : send(agent, 'faucet.B.register', [201], { body: { agent_id: agent.id, ...withReferrer, metadata: { framework: FRAMEWORKS[agent.draws.int(FRAMEWORKS.length)], version: agent.draws.int(10) + '.' + agent.draws.int(20) + '.' + agent.draws.int(50) } } });
  if (answer.status !== 201) return false;
  if (!judge('registration answers an api_key', answer.body !== null && typeof answer.body.api_key === 'string')) return false;
  agent.key = answer.body.api_key;
  agent.nextClaimB = typeof answer.body.next_claim === 'string';
  return true;
}

/** The one-time style-A claim: 200 the first time, 409 FAUCET_CLAIMED ever after. */
function claimA(agent) {
  const answer = send(agent, 'faucet.A.claim', [200, 409, 422], {});
  if (answer.limited || (answer.status === 422 && answer.code === 'INSUFFICIENT_BALANCE')) return;
  if (agent.claimedA) {
    judge('a second style-A claim is refused 409 FAUCET_CLAIMED', answer.status === 409 && answer.code === 'FAUCET_CLAIMED');
    return;
  }
  if (judge('the first style-A claim pays', answer.status === 200)) agent.claimedA = true;
}

/** Registration, then the style-A claim for a style-A agent: how every archetype joins. */
function onboard(agent, referrer) {
  if (!register(agent, referrer)) return false;
  if (agent.style === 'A') claimA(agent);
  return true;
}

/**
 * A style-B claim. nextClaimB: the platform announced a next_claim, and an iteration is far
 * shorter than the faucet's cooldown (24 h), so it has not come: only 409 FAUCET_CLAIMED is right.
 */
function claimB(agent) {
  const answer = send(agent, 'faucet.B.claim', [200, 409, 422], {});
  if (answer.limited || (answer.status === 422 && answer.code === 'INSUFFICIENT_BALANCE')) return 'not-answered';
  if (answer.status === 200) {
    judge('no B claim pays before the announced next_claim', !agent.nextClaimB);
    agent.nextClaimB = true;
    return 'paid';
  }
  judge('a refused B claim is 409 FAUCET_CLAIMED', answer.status === 409 && answer.code === 'FAUCET_CLAIMED');
  return 'refused';
}
`;
