import { BRAND_NAME, FREEZE_AT_CYCLES, LEVELS_PER_PROGRAM, MIN_DEPOSIT, MIN_WITHDRAWAL, WITHDRAWAL_FEE_PERCENT, WITHDRAWAL_METHODS } from "../shared/constants";
import { type Cents, formatPercent, formatUsdt, withdrawalFee } from "../shared/money";
import { PAGES } from "../shared/pages";
import type { SiteIconName } from "./siteIcons";

/**
 * Every word of the marketing site in one editable module. It invents no figure: the live ones
 * (members, paid out, levels active, level prices) come from the database through the server,
 * the rest (slots, cycles, fee, minimums) from the product's constants, read here.
 *
 * Nothing here may import React or server code at run time (icon names are only a type): the
 * landing island and the dashboard read it too. Texts that read a constant or a page path when
 * the module loads are built by a call marked pure, so a bundle that imports only `brand` (the
 * dashboard's first load) leaves the marketing texts out; the bundler keeps any object that
 * calls a function or reads a property of an import as it loads.
 */
const built = <T>(make: () => T): T => make();

export const brand = {
  name: BRAND_NAME,
  short: "MX",
  blurb:
    "A community-driven matrix platform where members grow together. Buy levels in the 3P and 6P programs, invite partners and keep every dollar visible in USDT.",
  copyrightYear: 2017,
};

export const nav = /* @__PURE__ */ built(() => [
  { label: "Home", href: "/#top" },
  { label: "Why Us", href: "/#why" },
  { label: "Shares", href: "/#shares" },
  { label: "Programs", href: "/#programs" },
  { label: "How it works", href: PAGES.howItWorks },
  { label: "Partners", href: "/#partners" },
]);

export const hero = /* @__PURE__ */ built(() => ({
  eyebrow: "USDT matrix programs",
  title: "Build your matrix with a community behind you",
  lead: "Join under a friend's referral ID, buy levels in the 3P and 6P matrices and see every slot your partners fill. Deposits and withdrawals in USDT, approved by real people.",
  primaryCta: { label: "Create your account", href: PAGES.register },
  secondaryCta: { label: "How it works", href: PAGES.howItWorks },
}));

/** The hero's figures: read from the ledger by the server, at most a minute old. */
export const stats = {
  title: "The platform today",
  members: "Members",
  paidOut: "Paid out to members",
  levelsActive: "Levels active",
  note: "Live from the ledger, refreshed every minute.",
};

export const why = {
  title: "Why choose us",
  lead: "Built for members who want clear rules, fast answers and a balance they can trust.",
  items: [
    { icon: "shield", title: "Secure by design", text: "Every balance change is written to a double-entry ledger and every request is checked by an admin." },
    { icon: "bolt", title: "Fast and simple", text: "Buy a level in one click. Your slots fill as partners below you buy the same level." },
    { icon: "globe", title: "Rules in the open", text: "Which slot pays you, when a level freezes and what every fee is: all on the How it works page, with today's prices." },
    { icon: "chart", title: "Transparent figures", text: "See your balance, pending withdrawals and every slot of every level at any moment." },
  ] satisfies { icon: SiteIconName; title: string; text: string }[],
};

export const shares = /* @__PURE__ */ built(() => ({
  title: "Buy and sell shares of the matrix",
  lead: "Your levels are your shares in the matrix. Buy the next one when you are ready. When partners below you fill the slots that pay, their price comes into your balance, and you can withdraw it in USDT.",
  steps: [
    { title: "Deposit USDT", text: "Send USDT (TRC20) to the platform wallet and submit the transaction ID." },
    { title: "Buy a level", text: "Pick the 3P or 6P program and buy level 1, then move up one level at a time." },
    {
      title: "Receive and withdraw",
      text: `Slots that pay put the buyer's price into your balance. Withdraw to TRC20 or BEP20; a ${formatPercent(WITHDRAWAL_FEE_PERCENT)} fee is kept.`,
    },
  ],
  cta: { buy: "Buy shares", sell: "Log in to withdraw" },
  /** The card beside the steps: each program's slots, as the server's slot rule says. */
  slotsCard: {
    title: "How a level pays",
    badge: "Rules in force",
    program: (name: string) => `${name} slots`,
    paid: "pays you",
    passedUp: "passes up",
    perCycle: (paid: number, slots: number) => `${paid} of ${slots} slots pay you each cycle`,
    link: { label: "See every rule", href: PAGES.howItWorks },
  },
}));

export const programs = /* @__PURE__ */ built(() => ({
  title: "Our programs",
  lead: `Two matrices, ${LEVELS_PER_PROGRAM} levels each. Start small and climb at your own pace.`,
  fromLabel: "Level 1 from",
  join: (name: string) => `Join ${name}`,
  more: { label: "Slots, cycles and prices, explained", href: PAGES.howItWorks },
  cards: [
    {
      id: "3p" as const,
      name: "3P Matrix",
      tagline: (slots: number) => `${slots} slots per level`,
      text: "A compact matrix with one row of slots. Ideal for getting started.",
    },
    {
      id: "6p" as const,
      name: "6P Matrix",
      tagline: (slots: number) => `${slots} slots per level`,
      text: "A wider matrix with two rows of slots, for members who build larger teams.",
    },
  ],
}));

/** Where a slot sends the price (`slotRule` in src/core/matrix.ts names these three). */
type SlotRuleName = "paid" | "pass_up" | "complete";

/**
 * The public "How it works" page. The server hands in what it reads from the database and the
 * matrix code (prices, the slot rules); every other figure comes from the constants here.
 */
export const howItWorks = /* @__PURE__ */ built(() => {
  const fee = formatPercent(WITHDRAWAL_FEE_PERCENT);
  const example: Cents = 2_000n;
  return {
    title: "How it works",
    eyebrow: "Where your money goes",
    lead: "Every rule that moves money on the platform, with the prices and fees the server applies today. Nothing here promises earnings: what you receive depends on the partners who buy below you.",
    tocLabel: "On this page",
    programs: {
      title: `Two programs, ${LEVELS_PER_PROGRAM} levels each`,
      text: (slots3p: number, slots6p: number) =>
        `The 3P program has ${slots3p} slots a level, the 6P program ${slots6p}. Each has ${LEVELS_PER_PROGRAM} levels. You buy level 1 first, then each next level once you own the one before it. A level you buy stays yours.`,
      pricesCaption: (name: string) => `${name}: current price and unfreeze cost of each level`,
      level: "Level",
      levelRow: (n: number) => `Level ${n}`,
      price: "Price",
      unfreeze: "Unfreeze cost",
      pricesNote: "Prices are read from the platform as this page loads; an admin may change them, and a purchase pays the price in force when it runs.",
      pricesUnavailable: "The current prices cannot be shown right now. Your Packages page shows them once you log in.",
    },
    slots: {
      title: "Slots: which pay you, which pass up",
      text: "When a partner buys a level, they take the next empty slot in the matrix of their receiver at that level (see Who receives, below). The slot decides where the price goes:",
      caption: (name: string) => `${name}: what each slot does with the price`,
      slot: "Slot",
      money: "The price",
      matrix: "The owner's matrix",
      slotRow: (n: number) => `Slot ${n}`,
      rules: {
        paid: { money: "Paid to the owner", matrix: "The buyer takes the slot" },
        pass_up: { money: "Passed up", matrix: "The buyer takes the slot" },
        complete: { money: "Passed up", matrix: "Completes the cycle: the slots are emptied" },
      } satisfies Record<SlotRuleName, { money: string; matrix: string }>,
      perCycle: (name: string, paid: number, slots: number) => `In ${name}, ${paid} of every ${slots} slots pay the owner.`,
      passedUp:
        "Passed up means the price does not stay with the owner: the same buyer is placed next in the matrix of the owner's own receiver, at the same level, where the same table applies. A price always ends with exactly one member, or with the platform.",
    },
    cycles: {
      title: "Cycles and freezing",
      complete: (last3p: number, last6p: number) =>
        `A cycle completes when the last slot fills (3P slot ${last3p}, 6P slot ${last6p}): the slots are emptied, the buyer's price is passed up, and the level counts one more cycle.`,
      freeze: `After ${FREEZE_AT_CYCLES} cycles the level freezes. A frozen level stays yours and the next level stays open to you, but it receives nothing: a payment that would have reached you there goes on to the nearest active member above you, or to the platform.`,
      ceiling: (name: string, paid: number) =>
        `Between buying (or unfreezing) a ${name} level and its freeze, partners who fill every slot pay you the price of ${paid * FREEZE_AT_CYCLES} slots: ${paid} a cycle for ${FREEZE_AT_CYCLES} cycles.`,
    },
    unfreeze: {
      title: "Unfreezing",
      backTitle: "What it brings back",
      text: "To wake a frozen level, pay its unfreeze cost (in the tables above) from your Packages page. The level becomes active again with empty slots and no cycles counted: a new cycle starts and you receive again, until it freezes again after another " +
        `${FREEZE_AT_CYCLES} cycles.`,
      payeeTitle: "Where the cost goes",
      payee: "The unfreeze cost goes to your receiver at that level, or to the platform when you have none. Unfreezing takes no slot in anyone's matrix.",
    },
    receivers: {
      title: "Who receives",
      text: "Your receiver at a level is the nearest member above you in the referral tree (your referrer, then theirs, and so on) whose same level, in the same program, is active. Members who were deleted, or whose level is frozen or not bought, are passed by.",
      platform: "When nobody above you qualifies, the payment goes to the platform.",
      missedTitle: "Missed earnings",
      missed: "A payment passes you by, and goes on above you, when it would have reached you but:",
      missedReasons: ["your level was frozen at the time, or", "you had not bought that level."],
      missedAfter: "A missed payment is not kept for you or paid later: it belongs to the member who received it. Only an active level receives.",
    },
    money: {
      title: "Deposits, withdrawals and the fee",
      depositsTitle: "Deposits",
      deposits: `Send USDT to the platform's wallet, then submit a deposit request with your wallet address, the transaction ID and the amount (at least ${formatUsdt(MIN_DEPOSIT)}). The request is pending until an admin checks and approves it; only then is the amount added to your balance. A declined request adds nothing.`,
      withdrawalsTitle: "Withdrawals",
      withdrawals: `Ask for at least ${formatUsdt(MIN_WITHDRAWAL)}, to a ${WITHDRAWAL_METHODS.join(" or ")} wallet. While the request is pending, the amount is held: you cannot spend it twice. When an admin approves it, a fee of ${fee} of the amount is kept and the rest is sent to your wallet; a declined request releases the hold.`,
      example: `Example: for a withdrawal of ${formatUsdt(example)}, the fee is ${formatUsdt(withdrawalFee(example))} and ${formatUsdt(example - withdrawalFee(example))} is sent to your wallet.`,
    },
    cta: {
      title: "Ready to start?",
      text: "Sign up under a friend's referral ID, deposit, and buy level 1 of either program.",
      register: { label: "Create your account", href: PAGES.register },
      dashboard: { label: "Open your dashboard", href: PAGES.dashboard },
    },
  };
});

export const partners = {
  title: "Trusted by partners worldwide",
  names: ["BlockNova", "CoinHarbor", "Ledgerly", "HashPeak", "NodeWorks", "Satoshi Labs", "ChainBridge", "TetherPoint", "Cryptonic", "VaultLine"],
};

export const footer = {
  socials: [
    { label: "Telegram", icon: "telegram", href: "#" },
    { label: "X (Twitter)", icon: "x-twitter", href: "#" },
    { label: "Facebook", icon: "facebook", href: "#" },
    { label: "Instagram", icon: "instagram", href: "#" },
  ] satisfies { label: string; icon: SiteIconName; href: string }[],
  quickLinks: [
    { label: "Home", href: "/#top" },
    { label: "About Us", href: "/#why" },
    { label: "Services", href: "/#programs" },
    { label: "Portfolio", href: "/#shares" },
    { label: "Blog", href: "/#partners" },
    { label: "Contact", href: "/#contact" },
  ],
  services: ["Web Development", "Mobile Apps", "UI/UX Design", "Digital Marketing", "Cloud Solutions", "Consulting"],
  contact: {
    address: "123 Blockchain Avenue, Suite 400, Crypto City, CC 10101",
    phone: "+1 (555) 010-2017",
    email: "support@matrixusdt.example",
  },
  newsletter: {
    title: "Subscribe to Newsletter",
    text: "News about programs and features, at most once a month.",
    button: "Subscribe",
  },
  legal: [
    { label: "Privacy Policy", href: "#" },
    { label: "Terms of Service", href: "#" },
    { label: "Cookie Policy", href: "#" },
  ],
};
