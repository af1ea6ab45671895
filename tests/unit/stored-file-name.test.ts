import { expect, it } from "vitest";
import { storedFileName } from "~/uploads/stored-file-name";

it("keeps a file name's last part, printable, at most 255 characters with its extension", () => {
  expect(storedFileName("a\r\n../b.pdf", "x.pdf")).toBe("b.pdf");
  expect(storedFileName("C:\\fakepath\\cv.docx", "x.pdf")).toBe("cv.docx");
  expect(storedFileName("tab\there\u0000\u007f\u0085.csv", "x.csv")).toBe("tabhere.csv");
  expect(storedFileName("cv\u202Efdp.exe", "x.pdf")).toBe("cvfdp.exe");
  // Marks Indian scripts need (zero-width joiners) stay.
  expect(storedFileName("क्\u200Dष.pdf", "x.pdf")).toBe("क्\u200Dष.pdf");
  for (const empty of ["", "   ", "/", "..", "a/..", "\r\n"]) expect(storedFileName(empty, "x.pdf")).toBe("x.pdf");
  const long = storedFileName(`${"😀".repeat(300)}.pdf`, "x.pdf");
  expect([[...long].length, long.endsWith("😀.pdf")]).toEqual([255, true]);
  expect(storedFileName("a".repeat(255), "x.pdf")).toBe("a".repeat(255));
});
