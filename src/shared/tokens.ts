/**
 * Colour tokens of the design system. uno.config.ts turns them into utilities (bg-ink,
 * text-muted, border-line...); SVG gradient stops read them directly. Contrast figures are
 * against ink (#0f172a) unless noted.
 */
export const colors = {
  // Page and panels
  ink: { DEFAULT: "#0f172a", deep: "#0a0f1f", raised: "#111827" },
  panel: { DEFAULT: "#1e293b", soft: "#172136", strong: "#273449" },
  // Decorative borders (violet, subtle) and form-control borders (field, 3.9:1 as WCAG 1.4.11 asks)
  line: { DEFAULT: "#4c3a8f", subtle: "#2b3650", strong: "#7c3aed", field: "#64748b" },
  // Text: fg 17:1, soft 11:1 on panel, muted 8.2:1 (5.8:1 on the lightest panel)
  fg: { DEFAULT: "#f8fafc", soft: "#dbe3ee" },
  muted: "#a3b1c6",
  // The brand gradient (buttons, white text on both ends >= 5:1)
  brand: { blue: "#2563eb", violet: "#9333ea" },
  // Bright figures and gradient headings (>= 6.7:1, >= 5.5:1 on panel)
  figure: { blue: "#60a5fa", violet: "#c084fc", green: "#4ade80" },
  // Status: text in the bright tone (>= 5.2:1 on panel), fills use it at low alpha
  // focus ring: 9:1
  focus: "#a5b4fc",
  active: "#4ade80",
  frozen: "#7dd3fc",
  locked: "#a3b1c6",
  pending: "#fbbf24",
  accepted: "#4ade80",
  declined: "#f87171",
  danger: { DEFAULT: "#dc2626", strong: "#b91c1c" },
} as const;
