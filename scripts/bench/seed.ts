// Seeds a benchmark database in a few set-based statements: 2,000 clients, 5,000 agents (with
// passports), 100,000 missions spread over a year in every state, their accept/complete events and
// the earnings of the completed ones — the data set the issues' performance targets name.
import postgres from 'postgres';

export interface SeedSize {
  clients: number;
  agents: number;
  missions: number;
}

export const FULL: SeedSize = { clients: 2_000, agents: 5_000, missions: 100_000 };

/**
 * FULL's proportions at another number of missions (`npm run bench:scale`): 50 missions a client
 * and 20 an agent, so a user's own lists (`mine`) hold as many missions at 10k as at 1M.
 */
export const scaledSize = (missions: number): SeedSize => ({ clients: missions / 50, agents: missions / 20, missions });

export async function seed(databaseUrl: string, size: SeedSize = FULL): Promise<{ clientWallet: string }> {
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    await sql`insert into users (wallet_address, role, display_name, created_at)
      select '0x' || lpad(to_hex(g), 40, '0'), 'CLIENT', 'client ' || g, now() - (g % 365) * interval '1 day'
      from generate_series(1, ${size.clients}) g`;
    await sql`insert into users (wallet_address, role, display_name, created_at)
      select '0x' || lpad(to_hex(1000000 + g), 40, '0'), 'AGENT', 'agent ' || g, now() - (g % 365) * interval '1 day'
      from generate_series(1, ${size.agents}) g`;
    await sql`insert into passports (user_id, wallet_address, status, token_id)
      select id, wallet_address, 'MINTED', 1000 + row_number() over (order by wallet_address)
      from users where role = 'AGENT'
      on conflict do nothing`;
    // Status by residue: 60 % OPEN, then ACCEPTED, SUBMITTED, CONTESTED, COMPLETED (20 %), CANCELLED.
    // Clients take runs of 20 consecutive missions, so each has missions in every state.
    await sql`
      with c as (select id, row_number() over (order by id) as n from users where role = 'CLIENT'),
           a as (select id, row_number() over (order by id) as n from users where role = 'AGENT'),
           g as (select g, now() - ((g::bigint * 7919) % 525600) * interval '1 minute' as created
                 from generate_series(1, ${size.missions}) g)
      insert into missions (client_id, agent_id, title, description, category, tags, reward, fee_bps, deadline, status,
                            listed_at, created_at, updated_at, accepted_at, completed_at, cancelled_at)
      select c.id,
             case when g.g % 20 >= 12 and g.g % 20 < 19 then a.id end,
             'Mission ' || g.g || ' ' || (array['label images','translate docs','audit contract','write tests',
                                                'summarise papers'])[1 + g.g % 5],
             'Benchmark mission number ' || g.g || ' with a description long enough to be searched.',
             (array['data','code','writing','design','research'])[1 + g.g % 5],
             array[(array['vision','nlp','solidity','python','go'])[1 + g.g % 5], 'tag' || (g.g % 50)],
             (1000000 + (g.g % 1000) * 1000000)::numeric, 250, g.created + interval '30 days',
             (case when g.g % 20 < 12 then 'OPEN' when g.g % 20 = 12 then 'ACCEPTED' when g.g % 20 = 13 then 'SUBMITTED'
                   when g.g % 20 = 14 then 'CONTESTED' when g.g % 20 < 19 then 'COMPLETED'
                   else 'CANCELLED' end)::mission_status,
             g.created, g.created, g.created,
             case when g.g % 20 >= 12 and g.g % 20 < 19 then g.created + interval '2 hours' end,
             case when g.g % 20 >= 15 and g.g % 20 < 19 then g.created + interval '3 days' end,
             case when g.g % 20 = 19 then g.created + interval '1 day' end
      from g
      join c on c.n = 1 + (g.g / 20) % ${size.clients}
      join a on a.n = 1 + (g.g * 31) % ${size.agents}`;
    await sql`insert into mission_events (mission_id, actor, actor_id, action, from_status, to_status, created_at)
      select id, 'AGENT', agent_id, 'accept', 'OPEN', 'ACCEPTED', accepted_at from missions where agent_id is not null`;
    await sql`insert into mission_events (mission_id, actor, actor_id, action, from_status, to_status, created_at)
      select id, 'OWNER', client_id, 'approve', 'SUBMITTED', 'COMPLETED', completed_at
      from missions where status = 'COMPLETED'`;
    await sql`insert into agent_earnings (agent_id, mission_id, gross, fee, amount, fee_bps, created_at)
      select agent_id, id, reward, reward * 250 / 10000, reward - reward * 250 / 10000, 250, completed_at
      from missions where status = 'COMPLETED'`;
    // docs/api.md#offerings: 20 active offerings an agent (the cap), as many as missions (100,000 in FULL).
    await sql`
      with a as (select id, row_number() over (order by id) as n from users where role = 'AGENT'),
           g as (select g from generate_series(1, ${size.missions}) g)
      insert into offerings (agent_id, title, description, category, tags, price, sla_hours, max_open_orders,
                             created_at, updated_at)
      select a.id,
             'Offering ' || g.g || ' ' || (array['label images','translate docs','audit contract','write tests',
                                                 'summarise papers'])[1 + g.g % 5],
             'Benchmark offering number ' || g.g || ' with a description long enough to be searched.',
             (array['data','code','writing','design','research'])[1 + g.g % 5],
             array[(array['vision','nlp','solidity','python','go'])[1 + g.g % 5], 'tag' || (g.g % 50)],
             (1000000 + (g.g % 997) * 100000)::numeric, 1 + g.g % 72, 3,
             now() - ((g.g::bigint * 7919) % 525600) * interval '1 minute', now()
      from g join a on a.n = 1 + (g.g - 1) % ${size.agents}`;
    await sql`analyze`;
    const [client] = await sql<
      { wallet_address: string }[]
    >`select wallet_address from users where role = 'CLIENT' order by wallet_address limit 1`;
    return { clientWallet: client!.wallet_address };
  } finally {
    await sql.end();
  }
}

/** The benchmark database left by an earlier run, when it holds the full data set (BENCH_REUSE=1). */
export async function seededWallet(
  adminUrl: string,
  name = 'taskmarket_bench',
): Promise<{ databaseUrl: string; clientWallet: string } | undefined> {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const sql = postgres(url.toString(), { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<{ count: number }[]>`select count(*)::int as count from missions`;
    if (!row || row.count < FULL.missions) return undefined;
    const [client] = await sql<
      { wallet_address: string }[]
    >`select wallet_address from users where role = 'CLIENT' order by wallet_address limit 1`;
    return { databaseUrl: url.toString(), clientWallet: client!.wallet_address };
  } catch {
    return undefined;
  } finally {
    await sql.end();
  }
}
