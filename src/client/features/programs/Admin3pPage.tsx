import { AdminLevelsPage } from "./AdminLevelsPage";

export default function Admin3pPage() {
  return <AdminLevelsPage program="3p" />;
}
