// What the verify pages say when there is no document to show (the page and its loader alike).

export const verifyMessages = {
  notFound: "No document with this code.",
  noCode: "Please enter the document's code.",
  notACode: "That is not a document code. A code looks like UPS-7K2M-9QXD-4HWB-C3RT.",
  tooManyGuesses: "Too many codes that match no document came from your network. Please wait 10 minutes and try again.",
} as const;
