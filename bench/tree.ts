import type { Sql } from "postgres";

/**
 * Bulk-loads a referral tree under the admin with plain SQL (the API would take minutes for
 * 100,000 sign-ups): users, their accounts and their team counts, computed here (team_sums by
 * the database's rebuild_team_sums) so they are what sign-ups would have produced.
 */
export interface TreeSpec {
  /** Length of a single chain hanging from the admin. */
  chain: number;
  /**
   * Length of a line where every user's first partner is a leaf and the line goes on through
   * their second: the shape that crosses the most chains (chains.ts), one per user.
   */
  comb: number;
  /** Users in a random recursive tree hanging from the admin (each picks an earlier one). */
  bushy: number;
  /** Share of bushy users with 3P level 1 active (0 or 1 cycles completed), so walks vary. */
  activeShare: number;
}

export interface LoadedTree {
  chain: string[];
  /** The comb's line, top to bottom (its leaves not included). */
  comb: string[];
  bushy: string[];
  /** Bushy users that nobody registered under. */
  leaves: string[];
}

const BATCH = 5_000;

/** `random`: where the tree's choices come from (a seeded generator makes the same tree every run). */
export async function loadTree(pg: Sql, adminId: string, spec: TreeSpec, passwordHash: string, random: () => number = Math.random): Promise<LoadedTree> {
  const parent = new Map<string, string>();
  const depth = new Map<string, number>([[adminId, 0]]);
  // Chains as sign-ups leave them (src/core/chains.ts): the first partner continues the
  // referrer's chain until another partner's team (with them) outgrows the heir's more than twice.
  const size = new Map<string, number>([[adminId, 1]]);
  const heir = new Map<string, string>();
  const order: string[] = [];
  let n = 0;
  const add = (p: string) => {
    const id = `b${String(n++).padStart(7, "0")}`;
    parent.set(id, p);
    depth.set(id, depth.get(p)! + 1);
    size.set(id, 1);
    if (!heir.has(p)) heir.set(p, id);
    for (let c = id, a: string | undefined = p; a; c = a, a = parent.get(a)) {
      size.set(a, size.get(a)! + 1);
      if (heir.get(a) !== c && size.get(c)! > 2 * size.get(heir.get(a)!)!) heir.set(a, c);
    }
    order.push(id);
    return id;
  };
  const chain: string[] = [];
  for (let i = 0, p = adminId; i < spec.chain; i++) p = chain[chain.push(add(p)) - 1]!;
  const comb: string[] = [];
  for (let i = 0, p = adminId; i < spec.comb; i++) {
    add(p); // the first partner, who stays a leaf
    p = comb[comb.push(add(p)) - 1]!;
  }
  const bushy: string[] = [];
  for (let i = 0; i < spec.bushy; i++) {
    const p = i === 0 ? adminId : bushy[Math.floor(random() * bushy.length)]!;
    bushy.push(add(p));
  }

  // Parents come before children in `order`.
  const direct = new Map<string, number>();
  const chainOf = new Map<string, string>([[adminId, adminId]]);
  for (const id of order) {
    const p = parent.get(id)!;
    direct.set(p, (direct.get(p) ?? 0) + 1);
    chainOf.set(id, heir.get(p) === id ? chainOf.get(p)! : id);
  }

  for (let i = 0; i < order.length; i += BATCH) {
    const ids = order.slice(i, i + BATCH);
    await pg`INSERT INTO users ${pg(
      ids.map((id) => ({
        id,
        name: `Bench ${id}`,
        email: `${id}@bench.local`,
        password_hash: passwordHash,
        role: "user",
        referral_id: `R${id.toUpperCase()}`,
        referrer_id: parent.get(id)!,
        depth: depth.get(id)!,
        chain_id: chainOf.get(id)!,
      })),
    )}`;
    await pg`INSERT INTO accounts ${pg(ids.map((id) => ({ id, kind: "user" })))}`;
    await pg`INSERT INTO team_counts ${pg(ids.map((id) => ({ user_id: id, direct: direct.get(id) ?? 0 })))}`;
  }
  await pg`UPDATE team_counts SET direct = direct + ${direct.get(adminId) ?? 0} WHERE user_id = ${adminId}`;
  // Team sizes as sign-ups would have counted them (migration 0011's function).
  await pg`SELECT rebuild_team_sums()`;

  const active = bushy.filter(() => random() < spec.activeShare);
  for (let i = 0; i < active.length; i += BATCH) {
    const rows = active.slice(i, i + BATCH).map((id) => ({
      user_id: id,
      program: "3p",
      level: 1,
      status: "active",
      cycles: Math.floor(random() * 2),
      chain_id: chainOf.get(id)!,
      depth: depth.get(id)!,
    }));
    await pg`INSERT INTO user_levels ${pg(rows)}`;
  }
  await pg`ANALYZE`;
  return { chain, comb, bushy, leaves: bushy.filter((id) => !heir.has(id)) };
}
