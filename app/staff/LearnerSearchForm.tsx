import { useId } from "react";
import { Field } from "~/ui/form";
import { pageSizes } from "./staff-types";
import type { WorkspaceSearch } from "./use-workspace-search";

const selectClass = "mt-1 rounded-md border border-slate-400 p-2";

/** The search box, the course filter and the page size; each change is a new address. */
export function LearnerSearchForm({
  search,
  course,
  courses,
  pageSize,
}: {
  search: WorkspaceSearch;
  course: string;
  courses: string[];
  pageSize: number;
}) {
  const ids = useId();
  return (
    <form
      role="search"
      className="flex flex-wrap items-end gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        search.go({ q: search.searchText });
      }}
    >
      <Field
        className="min-w-56 flex-1"
        id={`${ids}-search`}
        label="Search by name, email or phone"
        type="search"
        name="q"
        value={search.searchText}
        onChange={(e) => search.setSearchText(e.target.value)}
      />
      <div>
        <label htmlFor={`${ids}-course`} className="block font-semibold text-slate-900">
          Course
        </label>
        <select
          id={`${ids}-course`}
          name="course"
          className={selectClass}
          value={course}
          onChange={(e) => search.go({ course: e.target.value })}
        >
          <option value="">All Courses</option>
          {courses.map((one) => (
            <option key={one} value={one}>
              {one}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={`${ids}-size`} className="block font-semibold text-slate-900">
          Per page
        </label>
        <select
          id={`${ids}-size`}
          name="size"
          className={selectClass}
          value={pageSize}
          onChange={(e) => search.go({ size: Number(e.target.value) })}
        >
          {pageSizes.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </div>
    </form>
  );
}
