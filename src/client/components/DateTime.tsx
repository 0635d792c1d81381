const FORMAT = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** A server timestamp in the reader's locale, machine-readable in `dateTime`. */
export function DateTime({ value }: { value: string }) {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return <span>—</span>;
  return (
    <time dateTime={value} className="whitespace-nowrap">
      {FORMAT.format(date)}
    </time>
  );
}
