import { WITHDRAWAL_FEE_PERCENT } from "../shared/constants";
import { formatPercent } from "../shared/money";
import { PAGES } from "../shared/pages";
import type { IconName } from "./icons";

/**
 * Every word and figure of the marketing site in one editable module. The figures are static
 * marketing text (spec section 1); only the level prices on the program cards come from the
 * database, and the fee from the product's constant. Nothing here may import React or server
 * code at run time (icon names are only a type): the landing island reads it too.
 */
export const brand = {
  name: "Matrix USDT",
  short: "MX",
  blurb:
    "A community-driven matrix platform where members grow together. Buy levels in the 3P and 6P programs, invite partners and keep every dollar visible in USDT.",
  copyrightYear: 2017,
};

export const nav = [
  { label: "Home", href: "/#top" },
  { label: "Why Us", href: "/#why" },
  { label: "Shares", href: "/#shares" },
  { label: "Programs", href: "/#programs" },
  { label: "Partners", href: "/#partners" },
];

export const hero = {
  eyebrow: "USDT matrix programs",
  title: "Grow your crypto income with a community behind you",
  lead: "Join under a friend's referral ID, buy levels in the 3P and 6P matrices and watch your team fill every slot. Deposits and withdrawals in USDT, approved by real people.",
  primaryCta: { label: "Create your account", href: PAGES.register },
  secondaryCta: { label: "Log In", href: PAGES.login },
};

export const stats = [
  { value: "1M+", label: "Users" },
  { value: "99.9%", label: "Uptime" },
  { value: "24/7", label: "Support" },
  { value: "150+", label: "Countries" },
];

export const why = {
  title: "Why choose us",
  lead: "Built for members who want clear rules, fast answers and a balance they can trust.",
  items: [
    { icon: "shield", title: "Secure by design", text: "Every balance change is written to a double-entry ledger and every request is checked by an admin." },
    { icon: "bolt", title: "Fast and simple", text: "Buy a level in one click. Slots fill automatically as your partners join below you." },
    { icon: "globe", title: "A worldwide team", text: "Members in more than 150 countries build their matrices together, around the clock." },
    { icon: "chart", title: "Transparent figures", text: "See your balance, pending withdrawals and every slot of every level at any moment." },
  ] satisfies { icon: IconName; title: string; text: string }[],
};

export const shares = {
  title: "Buy and sell shares of the matrix",
  lead: "Your levels are your shares. Buy the next one when you are ready, earn as it fills, and withdraw your USDT whenever you choose.",
  steps: [
    { title: "Deposit USDT", text: "Send USDT (TRC20) to the platform wallet and submit the transaction ID." },
    { title: "Buy a level", text: "Pick the 3P or 6P program and buy level 1, then move up one level at a time." },
    { title: "Earn and withdraw", text: `Filled slots pay into your balance. Withdraw to TRC20 or BEP20 with an ${formatPercent(WITHDRAWAL_FEE_PERCENT)} fee.` },
  ],
  cta: { buy: "Buy shares", sell: "Sell and withdraw" },
  tickerTitle: "Level performance",
  tickerBadge: "Live programs",
  ticker: [
    { pair: "3P Level 1", change: "+12.4%" },
    { pair: "6P Level 1", change: "+18.9%" },
    { pair: "3P Level 4", change: "+7.2%" },
  ],
};

export const programs = {
  title: "Our programs",
  lead: "Two matrices, twelve levels each. Start small and climb at your own pace.",
  fromLabel: "Level 1 from",
  join: (name: string) => `Join ${name}`,
  cards: [
    {
      id: "3p" as const,
      name: "3P Matrix",
      tagline: "Three slots per level",
      text: "A compact matrix: three partners complete a level. Ideal for getting started.",
    },
    {
      id: "6p" as const,
      name: "6P Matrix",
      tagline: "Six slots per level",
      text: "A wider matrix with two lines of partners for members who build larger teams.",
    },
  ],
};

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
  ] satisfies { label: string; icon: IconName; href: string }[],
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
