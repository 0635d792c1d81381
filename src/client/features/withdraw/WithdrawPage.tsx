import { RequestsList } from "../../components/RequestsList";
import { useMyRequests } from "../myRequests/api/getMyRequests";
import { WithdrawForm } from "./WithdrawForm";

/** Withdraw: the amount is held at once and paid out when an admin accepts. */
export default function WithdrawPage() {
  const requests = useMyRequests("withdrawal");
  return (
    <div className="flex flex-col gap-6">
      <h1 className="heading-gradient text-2xl font-bold">Withdraw</h1>
      <div className="max-w-xl">
        <WithdrawForm />
      </div>
      <RequestsList query={requests} type="withdrawal" />
    </div>
  );
}
