// One SuperAgent's lifecycle and configuration over real HTTP (docs/api.md, Endpoints): pause, resume,
// restart, profile, soul, model, skills, files, wallet, health.
import { beforeEach, describe, expect, it } from 'vitest';
import { parseWire } from '../helpers/service-support.js';
import {
  agentPath,
  base58Decode,
  chat,
  expectError,
  expectEvmAddress,
  files,
  getJson,
  launch,
  type Launched,
  PROVIDER_MESSAGE,
  SKILL_CATALOGUE,
  SOUL_LIMIT,
  useService,
  useServicePerTest,
} from '../helpers/superagent-fixtures.js';

// Every test has its own service and a running agent, and brings that agent to the state it starts
// from itself (paused before a resume, say): no test relies on another having paused or resumed it.
describe('pause, resume, restart', () => {
  const svc = useServicePerTest();
  let id: string;
  beforeEach(async () => {
    id = (await launch(svc(), { name: 'Lifecycle' })).agent_id;
  });
  const act = (action: string) => svc().call('POST', agentPath(id, `/${action}`));
  const status = async () => (await getJson(svc(), agentPath(id))).status;

  it('pause answers { agent_id, status: paused }; pausing again is 409 Agent is not running', async () => {
    const res = await act('pause');
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ agent_id: id, status: 'paused' });
    expect(await status()).toBe('paused');
    expectError(await act('pause'), 409, 'Agent is not running');
    expect(await status()).toBe('paused');
  });

  it('chat with a paused agent is 409 Agent is paused (JSON and stream) and opens no session', async () => {
    expect((await act('pause')).status).toBe(200);
    const memory = (await files(svc(), id)).memory_md;
    expectError(await chat(svc(), id, { message: 'remember that I prefer SOL' }), 409, 'Agent is paused');
    expectError(await chat(svc(), id, { message: 'remember that I prefer SOL', stream: true }), 409, 'Agent is paused');
    expect((await files(svc(), id)).memory_md).toBe(memory);
  });

  it('resume answers { agent_id, status: running }; resuming again is 409 Agent is not paused', async () => {
    expect((await act('pause')).status).toBe(200);
    const res = await act('resume');
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ agent_id: id, status: 'running' });
    expect(await status()).toBe('running');
    expectError(await act('resume'), 409, 'Agent is not paused');
    expect(await status()).toBe('running');
  });

  it('restart from running answers { agent_id, status: running } and keeps soul and memory', async () => {
    expect(await status()).toBe('running');
    const first = await chat(svc(), id, { message: 'remember that I like ETH' });
    expect(first.status, first.text).toBe(200);
    const before = await files(svc(), id);
    const res = await act('restart');
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ agent_id: id, status: 'running' });
    expect(await files(svc(), id)).toEqual(before);
    // the session survives the restart too
    const next = await chat(svc(), id, { message: 'still there?', session_id: first.json.session_id });
    expect(next.status, next.text).toBe(200);
    expect(next.json.session_id).toBe(first.json.session_id);
  });

  it('restart from paused brings the agent back to running', async () => {
    expect((await act('pause')).status).toBe(200);
    const res = await act('restart');
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ agent_id: id, status: 'running' });
    expect(await status()).toBe('running');
    expect((await chat(svc(), id, { message: 'hello' })).status).toBe(200);
  });
});

// Every test changes an agent of its own (on its own service: more than ten tests here), so each
// starts from the launch's name 'Configurable' and description 'original'.
describe('PUT profile, soul, model', () => {
  const svc = useServicePerTest();
  let id: string;
  beforeEach(async () => {
    id = (await launch(svc(), { name: 'Configurable', description: 'original' })).agent_id;
  });
  const put = (suffix: string, body: unknown) => svc().call('PUT', agentPath(id, suffix), { body });
  const record = () => getJson(svc(), agentPath(id));
  const updated = () => ({ agent_id: id, status: 'updated' });

  it('profile: name only changes the name', async () => {
    const res = await put('/profile', { name: 'New Name' });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual(updated());
    expect(await record()).toMatchObject({ name: 'New Name', description: 'original' });
  });

  it('profile: description only changes the description', async () => {
    const res = await put('/profile', { description: 'rewritten' });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual(updated());
    expect(await record()).toMatchObject({ name: 'Configurable', description: 'rewritten' });
  });

  it('profile: both at once', async () => {
    expect((await put('/profile', { name: 'Both', description: 'both changed' })).json).toEqual(updated());
    expect(await record()).toMatchObject({ name: 'Both', description: 'both changed' });
  });

  it(
    'profile: a name another live agent of the account has is ' +
      "409, in any case; the agent's own in other letters is not",
    async () => {
      await launch(svc(), { name: 'Scout' });
      expectError(
        await put('/profile', { name: ' scout ', description: 'renamed' }),
        409,
        "An agent named 'scout' already exists",
      );
      expect(await record()).toMatchObject({ name: 'Configurable', description: 'original' });
      expect((await put('/profile', { name: 'CONFIGURABLE' })).status).toBe(200);
      expect(await record()).toMatchObject({ name: 'CONFIGURABLE' });
    },
  );

  it(
    'profile: a name that only looks different from a live ' + 'one (another Unicode form, full width) is 409 too',
    async () => {
      await launch(svc(), { name: 'Déjà' });
      for (const lookalike of ['De\u0301ja\u0300', 'ＤÉＪÀ']) {
        expectError(await put('/profile', { name: lookalike }), 409, `An agent named '${lookalike}' already exists`);
      }
      expect(await record()).toMatchObject({ name: 'Configurable' });
    },
  );

  it('profile: a rename and a launch of one name at once, or two renames: one name, one agent', async () => {
    const other = (await launch(svc(), { name: 'Other' })).agent_id;
    const rename = (agent: string) => svc().call('PUT', agentPath(agent, '/profile'), { body: { name: 'Taken' } });
    const launchTaken = () =>
      svc().call('POST', '/v1/superagents', { body: { name: 'Taken', model: 'gpt-4o', model_provider: 'openai' } });
    for (const race of [() => [rename(id), launchTaken()], () => [rename(id), rename(other)]]) {
      const answers = await Promise.all(race());
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      const named = (await svc().call('GET', '/v1/superagents')).json.agents.filter(
        (a: { name: string }) => a.name === 'Taken',
      );
      expect(named).toHaveLength(1);
      // free the name again for the next race
      expect(
        (
          await svc().call('PUT', agentPath(named[0].agent_id, '/profile'), {
            body: { name: `Was ${named[0].agent_id}` },
          })
        ).status,
      ).toBe(200);
    }
  });

  it.each<[string, unknown, string]>([
    ['neither name nor description', {}, 'name or description is required'],
    ['an empty name', { name: '  ' }, 'name must not be empty'],
    ['a 101-char name', { name: 'n'.repeat(101) }, 'name must be at most 100 characters'],
    ['a 501-char description', { description: 'd'.repeat(501) }, 'description must be at most 500 characters'],
  ])('profile: 400 for %s, nothing changes', async (_label, body, message) => {
    const before = await record();
    expectError(await put('/profile', body), 400, message);
    expect(await record()).toEqual(before);
  });

  it('soul: replaces soul.md whole, as GET files shows', async () => {
    const first = '# First Soul\n\nYou are First.\n\n## Rules\n- Never short.\n';
    const second = '# Second\n\nShorter.\n';
    expect((await put('/soul', { soul_md: first })).json).toEqual(updated());
    expect((await files(svc(), id)).soul_md).toBe(first);
    expect((await put('/soul', { soul_md: second })).json).toEqual(updated());
    expect((await files(svc(), id)).soul_md).toBe(second);
  });

  it.each<[string, unknown, string]>([
    ['missing soul_md', {}, 'soul_md is required'],
    ['soul_md over 256 KiB', { soul_md: 's'.repeat(SOUL_LIMIT + 1) }, `soul_md must be at most ${SOUL_LIMIT} bytes`],
    ['a non-string soul_md', { soul_md: ['# list'] }, 'soul_md must be a string'],
  ])('soul: 400 for %s, soul unchanged', async (_label, body, message) => {
    const before = (await files(svc(), id)).soul_md;
    expectError(await put('/soul', body), 400, message);
    expect((await files(svc(), id)).soul_md).toBe(before);
  });

  it(
    'model: answers { agent_id, status: updated } and changes the ' +
      'model (the record shows it, the chat stream runs on it)',
    async () => {
      const res = await put('/model', { model: 'grok-4', model_provider: 'xai' });
      expect(res.status, res.text).toBe(200);
      expect(res.json).toEqual(updated());
      expect((await record()).model).toBe('grok-4');
      const streamed = await chat(svc(), id, { message: 'hi', stream: true });
      expect(parseWire(streamed.text).events.find((e) => e.event === 'RunStarted')?.model).toBe('grok-4');
    },
  );

  it.each<[string, unknown, string]>([
    ['an empty body (model is checked first)', {}, 'model is required'],
    ['missing model', { model_provider: 'openai' }, 'model is required'],
    ['missing model_provider', { model: 'claude-opus-4-20250514' }, 'model_provider is required'],
    ['an unknown provider', { model: 'gemini-2.5-pro', model_provider: 'google' }, PROVIDER_MESSAGE],
  ])('model: 400 for %s, nothing changes', async (_label, body, message) => {
    const before = await record();
    expectError(await put('/model', body), 400, message);
    expect(await record()).toEqual(before);
  });
});

// An agent of its own per test: the skills tests change its skills.
describe('skills, files, wallet, health', () => {
  const svc = useServicePerTest();
  let agent: Launched;
  beforeEach(async () => {
    agent = await launch(svc(), { name: 'Inspector' });
  });
  const skillsPath = () => agentPath(agent.agent_id, '/skills');
  const enabledMap = (skills: Array<{ name: string; enabled: boolean }>) =>
    Object.fromEntries(skills.map((s) => [s.name, s.enabled]));
  const enabledNow = async () => enabledMap((await getJson(svc(), skillsPath())).skills);

  it('GET skills lists all nine catalogue skills with name, description and enabled', async () => {
    const body = await getJson(svc(), skillsPath());
    expect(Object.keys(body).sort()).toEqual(['agent_id', 'skills']);
    expect(body.agent_id).toBe(agent.agent_id);
    expect(body.skills.map((s: any) => s.name).sort()).toEqual([...SKILL_CATALOGUE].sort());
    for (const skill of body.skills) {
      expect(Object.keys(skill).sort()).toEqual(['description', 'enabled', 'name']);
      expect(typeof skill.description).toBe('string');
      expect(skill.description.trim().length).toBeGreaterThan(10);
      expect(typeof skill.enabled).toBe('boolean');
    }
  });

  const putSkills = (body: unknown) => svc().call('PUT', skillsPath(), { body });
  const onlyDisabled = (names: string[]) => Object.fromEntries(SKILL_CATALOGUE.map((s) => [s, !names.includes(s)]));

  it(
    'PUT skills { disabled } answers { agent_id, status: updated } ' +
      'and disables exactly those, enabling every other',
    async () => {
      const res = await putSkills({ disabled: ['polymarket', 'market-intel'] });
      expect(res.status, res.text).toBe(200);
      expect(res.json).toEqual({ agent_id: agent.agent_id, status: 'updated' });
      expect(await enabledNow()).toEqual(onlyDisabled(['polymarket', 'market-intel']));
      // the whole set each time: a skill left out of the next list is enabled again
      expect((await putSkills({ disabled: ['hyperliquid'] })).json).toEqual({
        agent_id: agent.agent_id,
        status: 'updated',
      });
      expect(await enabledNow()).toEqual(onlyDisabled(['hyperliquid']));
    },
  );

  it('PUT skills { disabled: [] } enables all; duplicates are fine; all nine can be disabled', async () => {
    expect((await putSkills({ disabled: [] })).status).toBe(200);
    expect(await enabledNow()).toEqual(onlyDisabled([]));
    expect((await putSkills({ disabled: ['solana-swap', 'solana-swap'] })).status).toBe(200);
    expect(await enabledNow()).toEqual(onlyDisabled(['solana-swap']));
    expect((await putSkills({ disabled: SKILL_CATALOGUE })).status).toBe(200);
    expect(await enabledNow()).toEqual(onlyDisabled(SKILL_CATALOGUE));
  });

  it.each<[string, unknown, string]>([
    [
      'an unknown skill (even next to a valid one)',
      { disabled: ['solana-swap', 'teleport'] },
      `Unknown skill 'teleport'; available: ${SKILL_CATALOGUE.join(', ')}`,
    ],
    [
      'a name in the wrong case',
      { disabled: ['Hyperliquid'] },
      `Unknown skill 'Hyperliquid'; available: ${SKILL_CATALOGUE.join(', ')}`,
    ],
    ['a missing disabled field', {}, 'disabled is required'],
    [
      'the old { skills: [{ name, enabled }] } shape',
      { skills: [{ name: 'hyperliquid', enabled: true }] },
      'disabled is required',
    ],
    ['a string instead of an array', { disabled: 'polymarket' }, 'disabled must be an array of strings'],
    ['an array with a non-string', { disabled: ['polymarket', 3] }, 'disabled must be an array of strings'],
  ])('PUT skills: 400 for %s, nothing changes', async (_label, body, message) => {
    const before = await getJson(svc(), skillsPath());
    expectError(await svc().call('PUT', skillsPath(), { body }), 400, message);
    expect(await getJson(svc(), skillsPath())).toEqual(before);
  });

  it('GET files answers exactly { agent_id, soul_md, memory_md }', async () => {
    const body = await files(svc(), agent.agent_id);
    expect(Object.keys(body).sort()).toEqual(['agent_id', 'memory_md', 'soul_md']);
    expect(body.agent_id).toBe(agent.agent_id);
    expect(body.soul_md).toContain('Inspector');
    expect(typeof body.memory_md).toBe('string');
  });

  it(
    'GET wallet: exactly { evm_address, solana_address }: EIP-55 ' +
      'and equal to the launch one, a 32-byte base58 key',
    async () => {
      const body = await getJson(svc(), agentPath(agent.agent_id, '/wallet'));
      expect(Object.keys(body)).toEqual(['evm_address', 'solana_address']);
      expectEvmAddress(body.evm_address);
      expect(body.evm_address).toBe(agent.wallet_address);
      expect(body.solana_address).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
      expect(base58Decode(body.solana_address)).toHaveLength(32);
      // stable: the same addresses every time
      expect(await getJson(svc(), agentPath(agent.agent_id, '/wallet'))).toEqual(body);
    },
  );

  it('GET health answers { agent_id, healthy: true }', async () => {
    expect(await getJson(svc(), agentPath(agent.agent_id, '/health'))).toEqual({
      agent_id: agent.agent_id,
      healthy: true,
    });
  });

  describe('with faults: { unhealthy: true }', () => {
    const sick = useService({ faults: { unhealthy: true } });
    it('GET health answers { agent_id, healthy: false }', async () => {
      const { agent_id } = await launch(sick(), { name: 'Sick' });
      expect(await getJson(sick(), agentPath(agent_id, '/health'))).toEqual({ agent_id, healthy: false });
    });
  });
});
