/** The header row of an orders export, as the spreadsheet and the PDF print it. */
export const ORDER_HEADERS = [
  'Order code',
  'Order date',
  'Status',
  'Customer',
  'Store',
  'Town',
  'Route',
  'Production unit',
  'Items',
  'Total amount',
  'Payment mode',
  'Delivery date',
  'Placed at',
];
