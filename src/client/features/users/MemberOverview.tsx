import type { ReactNode } from "react";
import { Link } from "react-router";
import { PROGRAMS, SLOTS_PER_LEVEL, type ProgramId } from "../../../shared/constants";
import { memberPage } from "./memberPaths";
import { DataTable, type Column } from "../../components/DataTable";
import { DateTime } from "../../components/DateTime";
import { Figure } from "../../components/Figure";
import { EmailText, LongId } from "../../components/LongText";
import { Money } from "../../components/Money";
import { StatusBadge } from "../../components/StatusBadge";
import type { MemberLevel, MemberRecord } from "./api/memberRecord";

const rowLabel = "m-0 text-xs font-semibold uppercase tracking-wider muted";

/** The Matrix tab at one level of one program. */
export const matrixLink = (id: string, program: ProgramId, level: number) => `${memberPage(id, "matrix")}&program=${program}&level=${level}`;

function Field({ label, children, wide = false }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <div className={`min-w-0 ${wide ? "sm:col-span-2" : ""}`}>
      <dt className={rowLabel}>{label}</dt>
      <dd className="m-0 mt-1 text-fg-soft">{children}</dd>
    </div>
  );
}

/** The record's first tab: who the member is, their money, their team and their levels. */
export function MemberOverview({ record }: { record: MemberRecord }) {
  return (
    <div className="flex flex-col gap-6">
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[3fr_2fr]">
        <Profile record={record} />
        <BalanceCard record={record} />
      </div>
      <Team record={record} />
      {PROGRAMS.map((program) => (
        <Levels key={program} record={record} program={program} />
      ))}
    </div>
  );
}

function Profile({ record }: { record: MemberRecord }) {
  const { referrer } = record;
  return (
    <section aria-labelledby="member-profile" className="card">
      <h2 id="member-profile" className="card-title">
        Profile
      </h2>
      <dl className="m-0 grid gap-4 sm:grid-cols-2">
        <Field label="Name">
          <span className="break-words font-semibold text-fg">{record.name}</span>
        </Field>
        <Field label="Email">
          <EmailText email={record.email} />
        </Field>
        <Field label="Referral ID">
          <span className="font-mono">{record.myReferralId}</span>
        </Field>
        <Field label="Referrer">
          {referrer === null ? (
            <span className="muted">None: the top of the tree</span>
          ) : (
            <span className="break-words">
              {/* A deleted referrer has no record to open. */}
              {referrer.deleted ? (
                referrer.name
              ) : (
                <Link to={memberPage(referrer.id)} className="link">
                  {referrer.name}
                </Link>
              )}{" "}
              <span className="muted font-mono text-sm">({referrer.myReferralId})</span>
              {referrer.deleted && <span className="muted"> · deleted</span>}
            </span>
          )}
        </Field>
        <Field label="Joined">
          <DateTime value={record.createdAt} />
        </Field>
        <Field label="Role">{record.role === "admin" ? "Admin" : "Member"}</Field>
        <Field label="Status">{record.status === "active" ? "Active" : record.status}</Field>
        <Field label="Two-factor authentication">{record.twoFactor ? "On" : "Off"}</Field>
        <Field label="Email address">{record.emailVerified ? "Confirmed" : "Not confirmed"}</Field>
        <Field label="User ID">
          <LongId value={record.id} label="user ID" />
        </Field>
      </dl>
    </section>
  );
}

/** The balance and what holds it, and what the levels earned and missed over the member's whole history. */
function BalanceCard({ record }: { record: MemberRecord }) {
  const rows = [
    { label: "Held by pending withdrawals", value: record.held },
    { label: "Available", value: record.available },
    { label: "Earned, all time", value: record.earned, className: "text-figure-green" },
    { label: "Missed, all time", value: record.missed, className: "text-pending" },
  ];
  return (
    <section aria-labelledby="member-balance" className="card">
      <h2 id="member-balance" className="card-title">
        Balance
      </h2>
      <p className="m-0 text-3xl font-extrabold tabular-nums text-figure-green">
        <Figure>
          <Money value={record.balance} />
        </Figure>
      </p>
      <dl className="m-0 mt-4 grid gap-2 text-sm">
        {rows.map((row) => (
          <div key={row.label} className="flex justify-between gap-4 border-t border-line-subtle pt-2">
            <dt className="muted">{row.label}</dt>
            <dd className={`m-0 tabular-nums ${row.className ?? ""}`}>
              <Figure>
                <Money value={row.value} />
              </Figure>
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function Team({ record }: { record: MemberRecord }) {
  return (
    <section aria-labelledby="member-team" className="card">
      <h2 id="member-team" className="card-title">
        Team
      </h2>
      <dl className="m-0 grid grid-cols-2 gap-4">
        {[
          { label: "Direct partners", value: record.directPartners },
          { label: "Whole team", value: record.totalPartners },
        ].map((figure) => (
          <div key={figure.label}>
            <dt className={rowLabel}>{figure.label}</dt>
            <dd className="m-0 mt-1 text-3xl font-bold tabular-nums text-figure-violet">{figure.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** Where a level stands: the cycle its matrix shows first, counted over the level's whole life. */
function cycleText(program: ProgramId, level: MemberLevel): string {
  if (level.status === "frozen") return `Frozen after cycle ${level.cyclesCompleted}`;
  if (level.status === "locked") return "Not bought";
  return `Cycle ${level.cycle}, ${level.filled} of ${SLOTS_PER_LEVEL[program]} slots filled`;
}

/**
 * One program's levels with a figure to show: those bought, and those never bought where payments
 * passed the member by. Each opens in the Matrix tab.
 */
function Levels({ record, program }: { record: MemberRecord; program: ProgramId }) {
  const name = program.toUpperCase();
  const shown = record.programs[program].filter((level) => level.status !== "locked" || level.missed > 0n);
  const columns: Column<MemberLevel>[] = [
    { header: "Level", cell: (level) => `Level ${level.level}` },
    { header: "Status", cell: (level) => <StatusBadge status={level.status} /> },
    { header: "Cycle", cell: (level) => cycleText(program, level) },
    { header: "Earned", numeric: true, cell: (level) => <Money value={level.earned} className="text-figure-green" /> },
    { header: "Missed", numeric: true, cell: (level) => <Money value={level.missed} className={level.missed > 0n ? "text-pending" : ""} /> },
    {
      header: "Matrix",
      end: true,
      cell: (level) => (
        <Link to={matrixLink(record.id, program, level.level)} className="link text-sm">
          Open<span className="sr-only"> the matrix of {name} Level {level.level}</span>
        </Link>
      ),
    },
  ];
  return (
    <section aria-labelledby={`member-levels-${program}`} className="flex flex-col gap-3">
      <h2 id={`member-levels-${program}`} className="m-0 text-lg font-semibold text-fg">
        {name} levels
      </h2>
      {shown.length === 0 ? (
        <p className="muted m-0">No {name} level bought, and nothing missed there.</p>
      ) : (
        <DataTable caption={`${name} levels of ${record.name}`} rows={shown} rowKey={(level) => String(level.level)} columns={columns} />
      )}
    </section>
  );
}
