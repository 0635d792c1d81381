import { colors } from "../../../shared/tokens";

/**
 * Our own isometric crypto scene: a platform, a vault tower, stacked USDT coins and a small
 * chain of blocks. Drawn from 3-D boxes projected here, so it stays sharp at any size and
 * costs no image request.
 */
const COS = Math.cos(Math.PI / 6);
const SIN = 0.5;
const UNIT = 13;
const ORIGIN = { x: 250, y: 190 };

type P3 = [x: number, y: number, z: number];
/** A tenth of a unit (a tenth of a pixel or less at the sizes the page draws it), no trailing zero. */
const n = (value: number) => String(Number(value.toFixed(1)));
/** The coins' curves: a hundredth, so their edges fall on the same pixels as with every digit. */
const c2 = (value: number) => Number(value.toFixed(2));
const project = ([x, y, z]: P3) => `${n(ORIGIN.x + (x - y) * COS * UNIT)},${n(ORIGIN.y + ((x + y) * SIN - z) * UNIT)}`;
const poly = (points: P3[]) => points.map(project).join(" ");

interface BoxProps {
  at: P3;
  size: P3;
  top: string;
  left: string;
  right: string;
}

function Box({ at: [x, y, z], size: [w, d, h], top, left, right }: BoxProps) {
  const zt = z + h;
  return (
    <>
      <polygon points={poly([[x, y + d, zt], [x + w, y + d, zt], [x + w, y + d, z], [x, y + d, z]])} fill={left} />
      <polygon points={poly([[x + w, y, zt], [x + w, y + d, zt], [x + w, y + d, z], [x + w, y, z]])} fill={right} />
      <polygon points={poly([[x, y, zt], [x + w, y, zt], [x + w, y + d, zt], [x, y + d, zt]])} fill={top} />
    </>
  );
}

/**
 * A coin of radius `r` lying flat at the origin, seen in isometric view: an ellipse with a rim
 * and the tether sign. Drawn once in <defs>; each coin of that size is a <use> of it.
 */
function CoinShape({ r, rim = 0.5 }: { r: number; rim?: number }) {
  const ex = r * UNIT * COS * 1.15;
  const ey = ex * 0.58;
  const [rx, ry] = [c2(ex), c2(ey)];
  return (
    <g id={coinId(r)}>
      {/* The rim's arc ends exactly a diameter away, or the arc's centre would move off its line. */}
      <path d={`M${-rx},0v${c2(rim * UNIT)}a${rx},${ry} 0 0 0 ${c2(2 * rx)},0v${c2(-rim * UNIT)}Z`} fill="url(#art-coin-side)" />
      <ellipse rx={rx} ry={ry} fill="url(#art-coin-top)" />
      <ellipse rx={c2(ex * 0.72)} ry={c2(ey * 0.72)} fill="none" stroke="#fff" strokeOpacity=".45" strokeWidth="1.2" />
      <path d={`M${c2(-ex * 0.32)},${c2(-ey * 0.3)}h${c2(ex * 0.64)}M0,${c2(-ey * 0.3)}v${c2(ey * 0.75)}`} stroke="#fff" strokeWidth="2" strokeLinecap="round" />
    </g>
  );
}

const coinId = (r: number) => `art-coin-${String(r).replace(".", "-")}`;
const COIN_SIZES = [1.3, 1.6, 1.9];

function Coin({ at, r = 1.6 }: { at: P3; r?: number }) {
  const [x, y] = project(at).split(",");
  return <use href={`#${coinId(r)}`} x={x} y={y} />;
}

const c = colors;
const BLOCKS: P3[] = [
  [9, -5, 0.6],
  [12.5, -1, 0.6],
  [12, 4.5, 0.6],
];

export function HeroArt({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 500 400" className={className} role="img" aria-labelledby="hero-art-title">
      <title id="hero-art-title">Isometric illustration: a vault tower on a platform with stacked USDT coins and a chain of blocks</title>
      <defs>
        <radialGradient id="art-glow" cx="50%" cy="55%" r="50%">
          <stop offset="0" stopColor={c.brand.violet} stopOpacity=".45" />
          <stop offset="1" stopColor={c.brand.violet} stopOpacity="0" />
        </radialGradient>
        <linearGradient id="art-coin-top" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor={c.figure.green} />
          <stop offset="1" stopColor={c.accepted} stopOpacity=".75" />
        </linearGradient>
        <linearGradient id="art-coin-side" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor={c.accepted} stopOpacity=".8" />
          <stop offset="1" stopColor={c.ink.deep} />
        </linearGradient>
        <linearGradient id="art-tower" x1="0" y1="0" x2="0" y2="1">
          <stop offset="0" stopColor={c.brand.blue} />
          <stop offset="1" stopColor={c.brand.violet} />
        </linearGradient>
        {COIN_SIZES.map((r) => (
          <CoinShape key={r} r={r} />
        ))}
      </defs>
      <ellipse cx="250" cy="230" rx="240" ry="160" fill="url(#art-glow)" />

      {/* platform and its glowing edge */}
      <Box at={[-9, -9, -1.2]} size={[18, 18, 1.2]} top={c.panel.strong} left={c.panel.soft} right={c.panel.DEFAULT} />
      <polygon points={poly([[-9, -9, 0], [9, -9, 0], [9, 9, 0], [-9, 9, 0]])} fill="none" stroke={c.line.strong} strokeOpacity=".7" />

      {/* connections between the blocks and the tower */}
      <polyline points={poly([[0, 0, 5], ...BLOCKS.map(([x, y, z]): P3 => [x + 1, y + 1, z + 2])])} fill="none" stroke={c.figure.blue} strokeDasharray="4 5" strokeWidth="1.5" />

      {/* vault tower */}
      <Box at={[-3, -3, 0]} size={[6, 6, 9]} top={c.figure.violet} left="url(#art-tower)" right={c.brand.violet} />
      <polygon points={poly([[3, -2, 2], [3, 2, 2], [3, 2, 7], [3, -2, 7]])} fill={c.ink.DEFAULT} fillOpacity=".35" />
      {[3, 4.5, 6].map((z) => (
        <polyline key={z} points={poly([[3, -1.4, z], [3, 1.4, z]])} stroke={c.figure.green} strokeWidth="2" />
      ))}
      <Box at={[-2, -2, 9]} size={[4, 4, 0.8]} top={c.fg.DEFAULT} left={c.figure.blue} right={c.brand.blue} />

      {/* stacked coins at the front left */}
      {[0, 0.55, 1.1, 1.65].map((z) => (
        <Coin key={z} at={[-5.5, 5.5, z]} />
      ))}
      {[0, 0.55].map((z) => (
        <Coin key={z} at={[-1.5, 6.5, z]} r={1.3} />
      ))}
      <Coin at={[-9.5, -2, 7]} r={1.9} />

      {/* the chain of blocks */}
      {BLOCKS.map((at, i) => (
        <Box key={i} at={at} size={[2, 2, 2]} top={c.figure.blue} left={c.brand.blue} right={c.line.strong} />
      ))}
    </svg>
  );
}
