import toast from "react-hot-toast";
import { MIN_LEVEL_PRICE, type ProgramId } from "../../../shared/constants";
import { formatDollars } from "../../../shared/money";
import { levelPriceSchema } from "../../../shared/schemas";
import { AmountInput, Field } from "../../components/Field";
import { showFailure, successMessage } from "../../lib/serverMessage";
import { useSchemaForm } from "../../lib/useSchemaForm";
import type { LevelPrice } from "./api/getLevels";
import { useUpdateLevel } from "./api/updateLevel";

/** Cost and unfreeze cost of one level, saved on their own. */
export function LevelPriceForm({ program, price }: { program: ProgramId; price: LevelPrice }) {
  const { values, errors, set, submit } = useSchemaForm(levelPriceSchema, {
    cost: formatDollars(price.cost),
    unfreezeCost: formatDollars(price.unfreezeCost),
  });
  const update = useUpdateLevel(program);

  const onSubmit = submit(async (prices) => {
    try {
      // The schema read the text as exact cents.
      const answer = await update.mutateAsync({ level: price.level, ...prices });
      toast.success(successMessage(answer, "Level updated successfully!"));
    } catch (error) {
      showFailure(error, "Failed to update level");
    }
  });

  return (
    <form
      noValidate
      onSubmit={onSubmit}
      aria-label={`Level ${price.level}`}
      className="card grid grid-cols-1 items-start gap-4 md:grid-cols-[6rem_1fr_1fr_auto]"
    >
      <h2 className="card-title md:mt-8">Level {price.level}</h2>
      <Field label="Cost (USDT)" error={errors.cost}>
        {(a11y) => <AmountInput {...a11y} min={MIN_LEVEL_PRICE} value={values.cost} onChange={set("cost")} />}
      </Field>
      <Field label="Unfreeze cost (USDT)" error={errors.unfreezeCost}>
        {(a11y) => <AmountInput {...a11y} min={MIN_LEVEL_PRICE} value={values.unfreezeCost} onChange={set("unfreezeCost")} />}
      </Field>
      <button type="submit" className="btn btn-primary focus-ring md:mt-7" disabled={update.isPending}>
        {update.isPending ? "Saving..." : "Save"}
      </button>
    </form>
  );
}
