import { colors } from "../../shared/tokens";

/** react-hot-toast takes inline styles, so its look is derived from the same colour tokens. */
export const tokens = {
  toast: {
    background: colors.panel.DEFAULT,
    color: colors.fg.DEFAULT,
    border: `1px solid ${colors.line.DEFAULT}`,
    borderRadius: "0.625rem",
    boxShadow: "0 12px 32px -12px rgb(2 6 23 / 0.8)",
  },
  success: { primary: colors.active, secondary: colors.ink.DEFAULT },
  error: { primary: colors.declined, secondary: colors.ink.DEFAULT },
};
