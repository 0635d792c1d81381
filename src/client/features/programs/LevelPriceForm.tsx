import { useState, type FormEvent } from "react";
import toast from "react-hot-toast";
import type { ProgramId } from "../../../shared/constants";
import { toDollars } from "../../../shared/money";
import { levelPriceSchema } from "../../../shared/schemas";
import { Field } from "../../components/Field";
import { fieldErrors } from "../../lib/fieldErrors";
import { failureMessage, successMessage } from "../../lib/serverMessage";
import type { LevelPrice } from "./api/getLevels";
import { useUpdateLevel } from "./api/updateLevel";

type Values = { cost: string; unfreezeCost: string };

/** Cost and unfreeze cost of one level, saved on their own. */
export function LevelPriceForm({ program, price }: { program: ProgramId; price: LevelPrice }) {
  const [values, setValues] = useState<Values>({ cost: String(price.cost), unfreezeCost: String(price.unfreezeCost) });
  const [errors, setErrors] = useState<Partial<Values>>({});
  const update = useUpdateLevel(program);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = levelPriceSchema.safeParse(values);
    if (!parsed.success) {
      setErrors(fieldErrors<keyof Values>(parsed.error));
      return;
    }
    setErrors({});
    try {
      // Decimals, exact: the schema read the text as cents, which become dollars again here.
      const answer = await update.mutateAsync({
        level: price.level,
        cost: toDollars(parsed.data.cost),
        unfreezeCost: toDollars(parsed.data.unfreezeCost),
      });
      toast.success(successMessage(answer, "Level updated successfully!"));
    } catch (error) {
      toast.error(failureMessage(error, "Failed to update level"));
    }
  }

  const input = (key: keyof Values) => (a11y: object) => (
    <input
      {...a11y}
      className="input"
      type="number"
      inputMode="decimal"
      min={0}
      step="0.01"
      required
      value={values[key]}
      onChange={(e) => setValues((v) => ({ ...v, [key]: e.target.value }))}
    />
  );

  return (
    <form
      noValidate
      onSubmit={submit}
      aria-label={`Level ${price.level}`}
      className="card grid grid-cols-1 items-start gap-4 md:grid-cols-[6rem_1fr_1fr_auto]"
    >
      <h2 className="card-title md:mt-8">Level {price.level}</h2>
      <Field label="Cost (USDT)" error={errors.cost}>
        {input("cost")}
      </Field>
      <Field label="Unfreeze cost (USDT)" error={errors.unfreezeCost}>
        {input("unfreezeCost")}
      </Field>
      <button type="submit" className="btn btn-primary focus-ring md:mt-7" disabled={update.isPending}>
        {update.isPending ? "Saving..." : "Save"}
      </button>
    </form>
  );
}
