import { AdminLevelsPage } from "./AdminLevelsPage";

export default function Admin6pPage() {
  return <AdminLevelsPage program="6p" />;
}
